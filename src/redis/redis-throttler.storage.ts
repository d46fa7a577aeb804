import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface.js';
import type { RedisLink } from './redis-link.js';
import { errorFields } from '../common/logging/json-logger.js';

/**
 * The in-memory storage's sliding window without blocking (blockDuration 0, as the `rate-limits` rule configures it),
 * in one atomic script so every instance draws on the same counter: hits are a sorted set of their
 * expiry times; a refused request is not counted; the window anchor gives X-RateLimit-Reset.
 * Time is Redis's own clock, so instances with skewed clocks still agree.
 * Returns totalHits, timeToExpire (s), isBlocked (0/1), timeToBlockExpire (s).
 */
const SLIDING_WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local anchor = tonumber(redis.call('GET', KEYS[2]) or '0')
if anchor - now <= 0 then
  anchor = now + ttl
  redis.call('SET', KEYS[2], anchor, 'PX', ttl)
end
local timeToExpire = math.ceil((anchor - now) / 1000)
local hits = redis.call('ZCARD', KEYS[1])
local blocked = hits >= limit
if not blocked then
  local seq = redis.call('INCR', KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ttl)
  redis.call('ZADD', KEYS[1], now + ttl, now .. '-' .. seq)
  redis.call('PEXPIRE', KEYS[1], ttl)
  hits = hits + 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local timeToBlockExpire = timeToExpire
if oldest[2] then timeToBlockExpire = math.ceil((tonumber(oldest[2]) - now) / 1000) end
if blocked then return { hits + 1, timeToExpire, 1, timeToBlockExpire } end
return { hits, timeToExpire, 0, 0 }
`;

/**
 * The arbitrage rate limit's counters in Redis, one per client IP across all instances,
 * behind the library's storage token so the guard, its headers and the 429 body stay exactly the `rate-limits` rule's.
 * While Redis is unreachable each instance counts on its own (the library's in-memory storage):
 * a limit per instance is better than refusing or waving through every request.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new ThrottlerStorageService();
  private degraded = false;

  constructor(private readonly redis: RedisLink) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    // Only the group's configuration (blockDuration 0) is implemented in Redis.
    if (blockDuration > 0) return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    const base = this.redis.key(`ratelimit:${throttlerName}:${key}`);
    try {
      const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = (await this.redis.commands.eval(
        SLIDING_WINDOW_SCRIPT, 3, `${base}:hits`, `${base}:window`, `${base}:seq`, ttl, limit,
      )) as [number, number, number, number];
      if (this.degraded) this.logger.log({ msg: 'rate limit counted in Redis again' });
      this.degraded = false;
      return { totalHits, timeToExpire, isBlocked: isBlocked === 1, timeToBlockExpire };
    } catch (err) {
      if (!this.degraded) this.logger.warn({ msg: 'Redis unreachable, counting the rate limit per instance', error: errorFields(err) });
      this.degraded = true;
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onApplicationShutdown(): void {
    this.fallback.onApplicationShutdown();
  }
}
