import { Global, Module } from '@nestjs/common';
import { DEFAULT_LEASE_TIMING, IngestLease, LEASE_TIMING } from './ingest-lease.js';
import { RedisLink } from './redis-link.js';
import { SseSlots } from './sse-slots.js';
import { MarketDataGap } from './market-data-gap.js';

/**
 * Issue 20: what joins an ingest process to its API instances. Global, so the market-data core,
 * the jobs, the streams and the rate limit reach the Redis link and the ingest lease directly.
 */
@Global()
@Module({
  providers: [RedisLink, IngestLease, SseSlots, MarketDataGap, { provide: LEASE_TIMING, useValue: DEFAULT_LEASE_TIMING }],
  exports: [RedisLink, IngestLease, SseSlots, MarketDataGap],
})
export class ScaleOutModule {}
