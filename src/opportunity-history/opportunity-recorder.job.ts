import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { OpportunityRecorderService } from './opportunity-recorder.service.js';
import { errorFields } from '../common/logging/json-logger.js';
import { RouteEpisodeRecorder } from './route-episode-recorder.service.js';
import { IngestLease } from '../redis/ingest-lease.js';

const DAY_MS = 86_400_000;
/** How often the spreads the stream showed are written (rules: recorders); at most this late in the store. */
export const CHANGE_FLUSH_MS = 1000;

/**
 * Thin scheduler for the opportunity-history recorder (rules: recorders): the spreads the stream
 * showed written every CHANGE_FLUSH_MS, a heartbeat round every HISTORY_INTERVAL_MS (0 switches
 * recording off) and retention daily. Retention runs even with the recorder off, since imported
 * history ages too.
 */
@Injectable()
export class OpportunityRecorderJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OpportunityRecorder');
  private readonly timers: NodeJS.Timeout[] = [];
  private busy = false;
  private flushing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly recorder: OpportunityRecorderService,
    private readonly episodes: RouteEpisodeRecorder,
    private readonly lease: IngestLease,
  ) {}

  /** Recording and retention run once, in the process holding the ingest lease. */
  onApplicationBootstrap(): Promise<void> {
    return this.lease.run(() => this.start());
  }

  private async start(): Promise<void> {
    // Awaited so a restart after a long stop trims old rows before any request reads them.
    await this.purge();
    this.timers.push(setInterval(() => void this.purge(), DAY_MS));
    const { recorderEnabled, intervalMs } = this.config.history;
    if (!recorderEnabled) return;
    this.timers.push(setInterval(() => void this.record(), intervalMs));
    this.timers.push(setInterval(() => void this.flushChanges(), CHANGE_FLUSH_MS));
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
      this.logger.error({ msg: 'recording opportunity history failed', error: errorFields(err) });
    }
    try {
      await this.episodes.storePending();
    } catch (err) {
      this.logger.error({ msg: 'recording route episodes failed (kept for the next round)', error: errorFields(err) });
    } finally {
      this.busy = false;
    }
  }

  /** Writes the spreads the stream showed since the last flush; a slow database makes them wait, never pile up. */
  async flushChanges(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      const { dropped } = await this.recorder.recordChanges();
      if (dropped > 0) this.logger.warn({ msg: 'route spreads dropped: more than the pending limit waited for the database', dropped });
    } catch (err) {
      this.logger.error({ msg: 'recording route spreads failed (kept for the next flush)', error: errorFields(err) });
    } finally {
      this.flushing = false;
    }
  }

  async purge(): Promise<void> {
    try {
      const deleted = await this.recorder.purgeExpired();
      if (deleted > 0) this.logger.log({ msg: 'retention deleted opportunity-history rows', rows: deleted });
      const episodes = await this.episodes.purgeBefore(this.recorder.retentionCutoff());
      if (episodes > 0) this.logger.log({ msg: 'retention deleted route episodes', rows: episodes });
    } catch (err) {
      this.logger.error({ msg: 'opportunity-history retention failed', error: errorFields(err) });
    }
  }
}
