import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { OpportunityRecorderService } from './opportunity-recorder.service.js';
import { errorFields } from '../common/logging/json-logger.js';
import { RouteEpisodeRecorder } from './route-episode-recorder.service.js';
import { IngestLease } from '../redis/ingest-lease.js';

const DAY_MS = 86_400_000;

/**
 * Thin scheduler for the opportunity-history recorder (rules: recorders): a round every HISTORY_INTERVAL_MS
 * (0 switches recording off) and retention daily. Retention runs even with the recorder off,
 * since imported history ages too.
 */
@Injectable()
export class OpportunityRecorderJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OpportunityRecorder');
  private readonly timers: NodeJS.Timeout[] = [];
  private busy = false;

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
    if (recorderEnabled) this.timers.push(setInterval(() => void this.record(), intervalMs));
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
