import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service.js';

/** Alert telemetry: firings by kind, delivery attempts by channel and outcome, and delivery latency. */
@Injectable()
export class AlertsMetrics {
  readonly fired: Counter<'kind'>;
  readonly delivered: Counter<'channel'>;
  readonly failed: Counter<'channel' | 'final'>;
  readonly latency: Histogram<'channel'>;

  constructor(metrics: MetricsService) {
    this.fired = new Counter({
      name: 'alerts_fired_total',
      help: 'Notifications recorded in the outbox, by rule kind',
      labelNames: ['kind'] as const,
      registers: [metrics.registry],
    });
    this.delivered = new Counter({
      name: 'alerts_delivered_total',
      help: 'Notifications delivered, by channel',
      labelNames: ['channel'] as const,
      registers: [metrics.registry],
    });
    this.failed = new Counter({
      name: 'alerts_failed_total',
      help: 'Failed delivery attempts, by channel; final="true" when the notification was given up (24 h, or its rule deleted)',
      labelNames: ['channel', 'final'] as const,
      registers: [metrics.registry],
    });
    this.latency = new Histogram({
      name: 'alerts_delivery_latency_seconds',
      help: 'From the firing to the successful delivery, by channel (retries included)',
      labelNames: ['channel'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600, 86400],
      registers: [metrics.registry],
    });
  }
}
