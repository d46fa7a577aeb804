import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { FundingRatesService } from './funding-rates.service.js';
import { errorFields } from '../common/logging/json-logger.js';
import { IngestLease } from '../redis/ingest-lease.js';

/**
 * Thin scheduler of the funding collector: every FUNDING_REFRESH_MS (0 switches it off), and
 * once at start. It runs whenever market data is set to reach exchanges (ENABLED_WEBSOCKET=1,
 * or MARKET_SIMULATOR_URL): the ranking needs only REST, but without either flag the service
 * promises to open no connection to an exchange at all.
 */
@Injectable()
export class FundingRatesJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FundingRatesJob');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly funding: FundingRatesService,
    private readonly lease: IngestLease,
  ) {}

  get enabled(): boolean {
    const { marketData, funding } = this.config;
    return funding.refreshMs > 0 && (marketData.websocketEnabled || marketData.simulatorUrl !== null);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    // Collected once, by the process holding the ingest lease.
    void this.lease.run(() => {
      if (this.stopped) return;
      // In the background: the HTTP server must come up even while exchanges are unreachable.
      void this.run();
      this.timer = setInterval(() => void this.run(), this.config.funding.refreshMs);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One collection; a collection still running (slow exchange) makes this one a no-op. */
  run(): Promise<void> {
    if (this.stopped || this.running) return this.running ?? Promise.resolve();
    this.running = this.funding
      .collect()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error({ msg: 'funding collection failed', error: errorFields(err) }))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
