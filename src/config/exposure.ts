import { isIP } from 'node:net';
import type { AppConfig } from './app-config.js';
import { InvalidEnvironmentError } from './validate-env.js';

/**
 * Whether HOST keeps the service on this machine: an IPv4 address in 127.0.0.0/8, `::1` (or an
 * IPv4-mapped 127.x), or the name `localhost`. Any other name may resolve anywhere, so it counts
 * as reachable from elsewhere.
 */
export function isLoopbackHost(host: string): boolean {
  const value = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (value === 'localhost' || value === 'localhost.') return true;
  if (isIP(value) === 4) return value.startsWith('127.');
  if (isIP(value) === 6) return value === '::1' || /^::ffff:127\./.test(value) || /^(0{1,4}:){7}0{0,3}1$/.test(value);
  return false;
}

/** With no credential on any route, only the operator's explicit opt-in may put the service beyond loopback. */
function isOpenBeyondLoopback(config: Pick<AppConfig, 'host' | 'auth'>): boolean {
  return config.auth.mode === 'none' && !isLoopbackHost(config.host);
}

/**
 * rules: exposure. Refuses a non-loopback HOST with AUTH_MODE=none unless ALLOW_OPEN_ACCESS=1:
 * every user's journal, positions and alert channels would be open to whoever reaches the address.
 * Checked at start (not in validateEnv) so the token and migration CLIs still run on such an env.
 */
export function assertSafeExposure(config: Pick<AppConfig, 'host' | 'auth' | 'allowOpenAccess'>): void {
  if (!isOpenBeyondLoopback(config) || config.allowOpenAccess) return;
  throw new InvalidEnvironmentError([
    `HOST=${config.host} is reachable from other machines and AUTH_MODE=none asks no credential: ` +
      'set AUTH_MODE=token (README "Authentication"), or ALLOW_OPEN_ACCESS=1 to serve it open on purpose',
  ]);
}

/** The one warning line of an opted-in open service; null when it is not open. */
export function openAccessNotice(config: Pick<AppConfig, 'host' | 'auth'>): string | null {
  if (!isOpenBeyondLoopback(config)) return null;
  return (
    `ALLOW_OPEN_ACCESS=1: listening on ${config.host} with AUTH_MODE=none, so whoever reaches this address ` +
    "reads and changes every user's data; set AUTH_MODE=token to require tokens"
  );
}
