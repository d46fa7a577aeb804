import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsService } from '../common/metrics/metrics.service.js';

export type JobOutcome = 'success' | 'failure';

/** The job's telemetry (the `crossing-counts` rule; rules: funding): failures are counted, every run is timed. */
@Injectable()
export class CrossingCountMetrics {
  readonly failures: Counter;
  readonly duration: Histogram<'outcome'>;

  constructor(metrics: MetricsService) {
    this.failures = new Counter({
      name: 'crossing_count_job_failures_total',
      help: 'Crossing-count job runs that failed (the error is in the log)',
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: 'crossing_count_job_duration_seconds',
      help: 'Wall time of crossing-count job runs, by outcome',
      labelNames: ['outcome'] as const,
      // A day is ~26 M samples at the defaults: seconds to minutes.
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600],
      registers: [metrics.registry],
    });
  }
}
