import { Global, Module } from '@nestjs/common';
import { getStorageToken, ThrottlerStorageService } from '@nestjs/throttler';
import { STREAM_SLOTS } from '../common/sse/stream-slots.js';
import { DEFAULT_LEASE_TIMING, IngestLease, LEASE_TIMING } from './ingest-lease.js';
import { RedisLink } from './redis-link.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';
import { SseSlots } from './sse-slots.js';
import { MarketDataGap } from './market-data-gap.js';

/**
 * What joins an ingest process to its API instances, below every feature. Global, so the
 * market-data core, the jobs, the streams and the rate limit reach the Redis link, the ingest
 * lease, the stream slots and the throttler's counters directly.
 */
@Global()
@Module({
  providers: [
    RedisLink,
    IngestLease,
    SseSlots,
    MarketDataGap,
    { provide: LEASE_TIMING, useValue: DEFAULT_LEASE_TIMING },
    { provide: STREAM_SLOTS, useExisting: SseSlots },
    {
      provide: getStorageToken(),
      inject: [RedisLink],
      useFactory: (redis: RedisLink) => (redis.enabled ? new RedisThrottlerStorage(redis) : new ThrottlerStorageService()),
    },
  ],
  exports: [RedisLink, IngestLease, SseSlots, MarketDataGap, STREAM_SLOTS, getStorageToken()],
})
export class RedisModule {}
