import { Global, Module } from '@nestjs/common';
import { getOptionsToken, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ArbitrageRateLimitGuard } from './arbitrage-rate-limit.guard.js';

/**
 * Provides what @ArbitrageRateLimit() needs to every feature module. Deliberately no global
 * guard: only the arbitrage group is limited (rules: rate-limits).
 *
 * The counters live behind the library's storage token (`getStorageToken()`), which the global
 * Redis module provides: in memory, or in Redis when REDIS_URL is set, so every instance draws on
 * one counter per client.
 */
@Global()
@Module({
  providers: [
    {
      provide: getOptionsToken(),
      inject: [APP_CONFIG],
      useFactory: ({ arbitrageRateLimit }: AppConfig): ThrottlerModuleOptions => ({
        // The one throttler is named 'default' so its headers carry no suffix
        // (X-RateLimit-Limit, Retry-After). blockDuration 0: a sliding window in which refused
        // requests are not counted, so Retry-After is when the oldest counted request expires.
        throttlers: [{ name: 'default', limit: arbitrageRateLimit.limit, ttl: arbitrageRateLimit.ttlMs, blockDuration: 0 }],
      }),
    },
    ArbitrageRateLimitGuard,
  ],
  exports: [getOptionsToken(), ArbitrageRateLimitGuard],
})
export class RateLimitModule {}
