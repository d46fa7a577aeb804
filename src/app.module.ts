import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import type { Keyring } from './common/secrets/secret-box.js';
import { SecretsModule } from './common/secrets/secrets.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { FailureMessageInterceptor } from './common/errors/failure-message.interceptor.js';
import { SseModule } from './common/sse/sse.module.js';
import { AppValidationPipe } from './common/validation/app-validation.pipe.js';
import { InputGuard } from './common/validation/input-guard.js';
import { CalculatorsModule } from './calculators/calculators.module.js';
import { DatabaseModule } from './database/database.module.js';
import { FavoriteCryptosModule } from './favorite-cryptos/favorite-cryptos.module.js';
import { HealthModule } from './health/health.module.js';
import { MarketDataModule } from './market-data/market-data.module.js';
import { LookersModule } from './lookers/lookers.module.js';
import { JournalModule } from './journal/journal.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { RealtimeModule } from './realtime/realtime.module.js';
import { OpportunityHistoryModule } from './opportunity-history/opportunity-history.module.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { FundingRatesModule } from './funding-rates/funding-rates.module.js';
import { CrossingCountsModule } from './crossing-counts/crossing-counts.module.js';
import { RedisModule } from './redis/redis.module.js';
import { ScaleOutRelayModule } from './scale-out/scale-out-relay.module.js';
import { AlertsModule } from './alerts/alerts.module.js';
import { AuthModule } from './auth/auth.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, keyring: Keyring): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        SecretsModule.forRoot(keyring),
        RedisModule,
        DatabaseModule,
        // First of the features, so its global guard runs before theirs.
        AuthModule,
        MetricsModule,
        SseModule,
        MarketDataModule,
        RealtimeModule,
        HealthModule,
        FavoriteCryptosModule,
        CalculatorsModule,
        LookersModule,
        JournalModule,
        RateLimitModule,
        OpportunityHistoryModule,
        FundingRatesModule,
        ScaleOutRelayModule,
        AlertsModule,
        CrossingCountsModule.register({ dailyJob: config.crossingCounts.dailyJob }),
      ],
      providers: [
        { provide: APP_PIPE, useClass: AppValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: InputGuard },
        { provide: APP_INTERCEPTOR, useClass: FailureMessageInterceptor },
      ],
    };
  }
}
