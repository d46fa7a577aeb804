import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { type CostsKind, MarketCostsBook } from './market-costs.book.js';
import { IngestLease } from '../redis/ingest-lease.js';

/**
 * Network states are read every 10 minutes. Taker fees come from the loaded markets,
 * which the ingest workers reload hourly, so reading them more often only repeats the same table.
 */
export const COSTS_REFRESH_MS: Readonly<Record<CostsKind, number>> = { networks: 10 * 60_000, fees: 60 * 60_000 };
/** After a failed read the next try comes this soon (the last known figures serve meanwhile). */
export const COSTS_RETRY_MS = 60_000;

/**
 * Thin scheduler for the costs book: fees and networks on their own timers, per exchange, so a
 * slow or failing call never holds the other back. Runs only with the feeds on (ENABLED_WEBSOCKET
 * or the simulator): without quotes there is nothing to cost, and calling the exchanges would only
 * start an ingest worker for nothing.
 */
@Injectable()
export class MarketCostsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketCosts');
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly book: MarketCostsBook,
    private readonly lease: IngestLease,
  ) {}

  onApplicationBootstrap(): void {
    const { websocketEnabled, simulatorUrl } = this.config.marketData;
    if (!(websocketEnabled || simulatorUrl !== null)) return;
    // The route costs price the detector's events, so they live where it runs.
    void this.lease.run(() => {
      // Not awaited: a slow exchange must not hold the start up; until then the `recorders` rule defaults apply.
      for (const exchange of this.config.marketData.exchanges) {
        for (const kind of ['fees', 'networks'] as const) void this.cycle(exchange, kind);
      }
    });
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }

  /** Both figures of every exchange, now (tests and a manual refresh). */
  async refresh(): Promise<void> {
    await Promise.all(this.config.marketData.exchanges.flatMap((exchange) =>
      (['fees', 'networks'] as const).map((kind) => this.refreshOne(exchange, kind))));
  }

  private async cycle(exchange: ExchangeName, kind: CostsKind): Promise<void> {
    const ok = await this.refreshOne(exchange, kind);
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.cycle(exchange, kind);
    }, ok ? COSTS_REFRESH_MS[kind] : Math.min(COSTS_RETRY_MS, COSTS_REFRESH_MS[kind]));
    this.timers.add(timer);
  }

  private async refreshOne(exchange: ExchangeName, kind: CostsKind): Promise<boolean> {
    const failed = await this.book.refreshKind(exchange, kind);
    if (failed) this.logger.warn({ msg: 'costs not refreshed; last known figures kept', exchange, kind, reason: failed });
    return failed === null;
  }
}
