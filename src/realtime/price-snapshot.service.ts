import { Inject, Injectable } from '@nestjs/common';
import { Observable, map, share, timer } from 'rxjs';
import { type SseFrame, dataFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MarketDataService } from '../market-data/market-data.service.js';
import { QuoteBook } from '../market-data/quote-book.js';
import type { PriceSnapshotEntryDto } from './dto/price-snapshot-entry.dto.js';

/**
 * The price snapshot stream (rules: opportunities): one clock for all clients; each tick builds and
 * serialises the snapshot ONCE and every client is written the same bytes. The clock runs only
 * while at least one client is connected.
 */
@Injectable()
export class PriceSnapshotService {
  readonly frames: Observable<SseFrame>;
  private clients = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly book: QuoteBook,
    private readonly marketData: MarketDataService,
  ) {
    const shared = timer(0, config.realtime.pricesIntervalMs).pipe(
      map(() => dataFrame(this.snapshot())),
      share(),
    );
    this.frames = new Observable<SseFrame>((subscriber) => {
      this.clients += 1;
      const subscription = shared.subscribe(subscriber);
      return () => {
        this.clients -= 1;
        subscription.unsubscribe();
      };
    });
  }

  /** Clients subscribed now; the shared clock runs only while this is above zero. */
  get clientCount(): number {
    return this.clients;
  }

  /** Every quote of every exchange whose realtime connection is up. */
  snapshot(): PriceSnapshotEntryDto[] {
    const health = this.marketData.healthReport();
    const entries: PriceSnapshotEntryDto[] = [];
    for (const q of this.book.snapshot()) {
      if (!health[q.exchange]?.connected) continue;
      entries.push({
        ticker: q.ticker,
        exchange: q.exchange,
        market: q.market,
        ask: q.ask,
        bid: q.bid,
        askQty: q.askQty,
        bidQty: q.bidQty,
        volume: q.volume,
        updatedAt: new Date(q.receivedAt).toISOString(),
      });
    }
    return entries;
  }
}
