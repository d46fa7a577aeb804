import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { ExchangeName } from './exchanges.js';
import { MarketDataService } from './market-data.service.js';
import { QuoteBook } from './quote-book.js';

/**
 * Market-data metrics, computed at scrape time from the book and the feed health so the tick
 * path pays nothing for them (a labelled counter increment per tick would cost more than the
 * book update itself).
 */
@Injectable()
export class MarketDataMetrics {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    metrics: MetricsService,
    book: QuoteBook,
    feeds: MarketDataService,
  ) {
    const exchanges: readonly ExchangeName[] = config.marketData.exchanges;
    const reported = new Map<string, number>();
    const catchUp = (counter: Counter<'exchange'>, key: string, exchange: ExchangeName, total: number): void => {
      const delta = total - (reported.get(key) ?? 0);
      if (delta > 0) counter.inc({ exchange }, delta);
      reported.set(key, total);
    };
    new Counter({
      name: 'market_ticks_total',
      help: 'Quote ticks received, per exchange',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        for (const e of exchanges) catchUp(this, `ticks:${e}`, e, book.tickCounts[e]);
      },
    });
    new Counter({
      name: 'market_feed_reconnects_total',
      help: 'Websocket feed reconnects (drops and silence), per exchange',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        const report = feeds.healthReport();
        for (const e of exchanges) catchUp(this, `reconnects:${e}`, e, report[e]?.reconnects ?? 0);
      },
    });
    new Gauge({
      name: 'market_feed_connected',
      help: '1 while every feed connection of the exchange is up',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        const report = feeds.healthReport();
        for (const e of exchanges) this.set({ exchange: e }, report[e]?.connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'market_stale_quotes',
      help: 'Quotes in the book whose last tick is older than 10 s (D5)',
      registers: [metrics.registry],
      collect() {
        this.set(book.countStale());
      },
    });
  }
}
