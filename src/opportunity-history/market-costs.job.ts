import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ExchangeName } from '../market-data/exchanges.js';
import { MarketCostsBook } from './market-costs.book.js';

/** Issue 10: fees and network states are refreshed every 10 minutes. */
export const COSTS_REFRESH_MS = 10 * 60 * 1000;

/**
 * Thin scheduler for the route costs; runs only while the history recorder, their one reader,
 * has quotes to record: with the feeds off (no ENABLED_WEBSOCKET and no simulator) there are
 * none, and calling the exchanges would only start an ingest worker for nothing.
 */
@Injectable()
export class MarketCostsJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketCosts');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly book: MarketCostsBook,
  ) {}

  onApplicationBootstrap(): void {
    const { websocketEnabled, simulatorUrl } = this.config.marketData;
    if (!this.config.history.recorderEnabled || !(websocketEnabled || simulatorUrl !== null)) return;
    // Not awaited: a slow exchange must not hold the start up; until then the D8 defaults apply.
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), COSTS_REFRESH_MS);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    await Promise.all(this.config.marketData.exchanges.map(async (exchange: ExchangeName) => {
      const failed = await this.book.refresh(exchange);
      if (failed.length > 0) this.logger.warn(`${exchange} costs not refreshed (${failed.join('; ')}); previous figures kept`);
    }));
  }
}
