import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { saoPauloDayOf, saoPauloStartOfDay } from '../common/time/sao-paulo.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MARKET_CLOCK } from '../market-data/market-data.constants.js';
import { CrossingCountRepository, type CrossingCountSummary } from './crossing-count.repository.js';
import { CrossingCountWorker } from './crossing-count.worker.js';
import { CrossingCountMetrics } from './crossing-counts.metrics.js';
import { parseCrossingQuery, parseProcessingDate, type RawCrossingQuery } from './crossing-params.js';
import { errorFields } from '../common/logging/json-logger.js';

export interface CrossingJobAccepted {
  processingDate: string;
  status: 'accepted';
}

/** The runs of one date: the one in progress and at most one queued behind it. */
interface DateRuns {
  current: Promise<void>;
  next?: Promise<void>;
}

/**
 * Accepts crossing-count runs and answers the read endpoint. Runs of the same date never overlap
 * in this process: a request while one runs queues ONE more run (later requests join it), so the
 * newest samples are always counted without piling up identical work.
 */
@Injectable()
export class CrossingCountsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('CrossingCounts');
  private readonly runs = new Map<string, DateRuns>();
  private closing = false;

  constructor(
    private readonly worker: CrossingCountWorker,
    private readonly repository: CrossingCountRepository,
    private readonly metrics: CrossingCountMetrics,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** POST: validates, queues the run and returns at once; the run starts after the reply (rules: crossing-counts). */
  accept(body: unknown): CrossingJobAccepted {
    const processingDate = parseProcessingDate(body, this.clock.now());
    void this.schedule(processingDate);
    return { processingDate, status: 'accepted' };
  }

  list(query: RawCrossingQuery): Promise<CrossingCountSummary[]> {
    return this.repository.summarize(parseCrossingQuery(query, this.clock.now(), this.config.marketData.exchanges));
  }

  /** The daily run (rules: funding): the São Paulo day before the one the job fires in. */
  runPreviousDay(): Promise<void> {
    const today = saoPauloDayOf(this.clock.now());
    return this.schedule(saoPauloDayOf(saoPauloStartOfDay(today).getTime() - 1));
  }

  /**
   * Resolves when a run of `date` that started after this call has finished (never rejects:
   * failures are logged and counted). The first run waits for setImmediate, i.e. until the
   * handler's reply has been handed to the socket.
   */
  schedule(date: string): Promise<void> {
    const runs = this.runs.get(date);
    if (!runs) {
      const current = this.launch(date, new Promise<void>((resolve) => setImmediate(resolve)));
      this.runs.set(date, { current });
      return current;
    }
    runs.next ??= this.launch(date, runs.current);
    return runs.next;
  }

  /** Resolves once no run of `date` is in progress or queued. */
  async settled(date: string): Promise<void> {
    for (let runs = this.runs.get(date); runs; runs = this.runs.get(date)) await (runs.next ?? runs.current);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Queued runs are dropped; one in progress finishes, so the database is not closed under it.
    this.closing = true;
    await Promise.all([...this.runs.values()].map((r) => r.current));
  }

  private launch(date: string, after: Promise<void>): Promise<void> {
    const run: Promise<void> = after
      .then(() => this.execute(date))
      .finally(() => {
        const runs = this.runs.get(date);
        if (runs?.current !== run) return;
        if (runs.next) {
          runs.current = runs.next;
          runs.next = undefined;
        } else {
          this.runs.delete(date);
        }
      });
    return run;
  }

  private async execute(processingDate: string): Promise<void> {
    if (this.closing) return;
    const stopTimer = this.metrics.duration.startTimer();
    try {
      const result = await this.worker.countDay(processingDate);
      const seconds = stopTimer({ outcome: 'success' });
      this.logger.log({ msg: 'crossing counts stored', ...result, seconds });
    } catch (err) {
      stopTimer({ outcome: 'failure' });
      this.metrics.failures.inc();
      this.logger.error({
        msg: 'crossing-count job failed',
        processingDate,
        error: errorFields(err),
      });
    }
  }
}
