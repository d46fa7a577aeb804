import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from './clock.js';
import { MARKET_CLOCK } from './market-data.constants.js';
import { MarketSampleRepository } from './market-sample.repository.js';
import { FundingRateBook } from './funding-rate-book.js';
import { QuoteBook } from './quote-book.js';
import { SampleRecorder } from './sample-recorder.js';
import { errorFields } from '../common/logging/json-logger.js';
import { IngestLease } from '../redis/ingest-lease.js';

const DAY_MS = 86_400_000;
/** Partition upkeep is idempotent and cheap, so it runs hourly rather than at an exact midnight. */
const MAINTENANCE_MS = 60 * 60 * 1000;
/** Partitions kept ready ahead of now, so a job that misses a run never meets a missing partition. */
const DAYS_AHEAD = 3;

/** Thin scheduler for the sample recorder (rules: recorders); SAMPLE_INTERVAL_MS=0 switches it off. */
@Injectable()
export class SampleRecorderJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SampleRecorder');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly recorder: SampleRecorder;
  private busy = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly repository: MarketSampleRepository,
    book: QuoteBook,
    funding: FundingRateBook,
    private readonly lease: IngestLease,
  ) {
    this.recorder = new SampleRecorder({
      book,
      clock,
      insert: (s) => repository.insert(s),
      funding: (exchange, ticker) => funding.rate(exchange, ticker),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const { sampleIntervalMs } = this.config.marketData;
    if (sampleIntervalMs <= 0) return;
    // Recorded once, by the process holding the ingest lease.
    await this.lease.run(() => this.start(sampleIntervalMs));
  }

  private async start(sampleIntervalMs: number): Promise<void> {
    await this.maintain();
    this.timers.push(
      setInterval(() => void this.record(), sampleIntervalMs),
      setInterval(() => void this.maintain(), MAINTENANCE_MS),
    );
  }

  onApplicationShutdown(): void {
    this.timers.forEach((t) => clearInterval(t));
  }

  async record(): Promise<void> {
    // A slow database must not pile rounds up behind each other; skipping one is harmless.
    if (this.busy) return;
    this.busy = true;
    try {
      await this.recorder.recordOnce();
    } catch (err) {
      this.logger.error({ msg: 'recording samples failed', error: errorFields(err) });
    } finally {
      this.busy = false;
    }
  }

  async maintain(): Promise<void> {
    try {
      const now = this.clock.now();
      await this.repository.ensurePartitions(now - DAY_MS, DAYS_AHEAD + 1);
      const dropped = await this.repository.dropPartitionsBefore(now - this.config.marketData.sampleRetentionDays * DAY_MS);
      if (dropped.length > 0) this.logger.log({ msg: 'retention dropped sample partitions', partitions: dropped });
    } catch (err) {
      this.logger.error({ msg: 'sample partition upkeep failed', error: errorFields(err) });
    }
  }
}
