import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FundingRatesModule } from '../funding-rates/funding-rates.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MARKET_CLOCK } from '../market-data/market-data.constants.js';
import { RealtimeModule } from '../realtime/realtime.module.js';
import { AlertEvaluatorService } from './alert-evaluator.service.js';
import { guardedAlertHttp } from './alert-http.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import { AlertOutboxRepository } from './alert-outbox.repository.js';
import { AlertRuleEntity } from './alert-rule.entity.js';
import { AlertSenderService } from './alert-sender.service.js';
import { targetPolicy, type TargetPolicy } from './alert-targets.js';
import { ALERT_HTTP, ALERT_TARGET_POLICY, ALERTS_CLOCK } from './alerts.constants.js';
import { AlertsController } from './alerts.controller.js';
import { AlertsMetrics } from './alerts.metrics.js';
import { AlertsService } from './alerts.service.js';

/**
 * Alerts: rules owned by an email, evaluated against the opportunity stream's published events,
 * funding collections and feed health, and delivered from an outbox to webhooks, Telegram and Discord.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AlertRuleEntity, AlertNotificationEntity]), RealtimeModule, FundingRatesModule],
  controllers: [AlertsController],
  providers: [
    AlertsService,
    AlertsMetrics,
    AlertOutboxRepository,
    AlertSenderService,
    AlertEvaluatorService,
    { provide: ALERT_TARGET_POLICY, inject: [APP_CONFIG], useFactory: (config: AppConfig) => targetPolicy(config.alerts) },
    { provide: ALERT_HTTP, inject: [ALERT_TARGET_POLICY], useFactory: (policy: TargetPolicy) => guardedAlertHttp(policy) },
    { provide: ALERTS_CLOCK, inject: [MARKET_CLOCK], useFactory: (clock: Clock) => clock },
  ],
  exports: [AlertEvaluatorService, AlertSenderService],
})
export class AlertsModule {}
