import { Global, Module } from '@nestjs/common';
import { getOptionsToken, getStorageToken, ThrottlerStorageService, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ArbitrageRateLimitGuard } from './arbitrage-rate-limit.guard.js';

/**
 * Provides what @ArbitrageRateLimit() needs to every feature module. Deliberately no global
 * guard: only the arbitrage group is limited (D3).
 *
 * The counters live behind the library's storage token (`getStorageToken()`, in memory here);
 * a multi-instance deployment provides a shared implementation (Redis, PostgreSQL) for that
 * token and nothing else changes.
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
    { provide: getStorageToken(), useClass: ThrottlerStorageService },
    ArbitrageRateLimitGuard,
  ],
  exports: [getOptionsToken(), getStorageToken(), ArbitrageRateLimitGuard],
})
export class RateLimitModule {}
