import type { AppConfig } from '../../config/app-config.js';
import { DEFAULT_LEASE_TIMING, IngestLease } from '../ingest-lease.js';
import { RedisLink } from '../redis-link.js';

/** The lease of a ROLE=all process (always held, no Redis), for specs that build a job by hand. */
export function soloLease(): IngestLease {
  const config = { scaleOut: { role: 'all', redis: null } } as unknown as AppConfig;
  return new IngestLease(config, new RedisLink(config), DEFAULT_LEASE_TIMING);
}
