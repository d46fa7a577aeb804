import type { MarketInterface } from 'ccxt';
import { symbolsByTicker } from '../ccxt/ccxt-markets.js';
import { WindowPacer } from '../ccxt/window-pacer.js';
import type { Clock } from '../clock.js';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import { BookBatchWriter } from './book-batch.js';
import type { BookLevel } from './depth-book.js';
import { type DepthClient, DepthFeed, type RequestPacer } from './depth-feed.js';
import { DEPTH_WINDOW_MARGIN } from './depth-limits.js';
import { venueOf } from '../../venues/registry.js';

/** A book the serving thread wants: its id there, and its ticker. */
export interface HeldBookEntry {
  id: number;
  ticker: string;
}

export interface DepthFeedsOptions {
  /** A fresh ccxt client for the exchange's depth in one market type, holding that type's markets. */
  createClient(exchange: ExchangeName, market: Market): Promise<DepthClient>;
  /** The exchange's loaded markets (the worker's REST client's). */
  markets(exchange: ExchangeName): Promise<Record<string, MarketInterface | undefined>>;
  clock: Clock;
  /** How often books are read from ccxt's cache and flushed to the serving thread. */
  pollMs: number;
  retryMs: number;
  onBatch(batch: Float64Array): void;
  onError?(exchange: ExchangeName, symbols: readonly string[], reason: string): void;
}

interface FeedSlot {
  feed: DepthFeed;
  /** Base units per ccxt amount unit, by id (contracts on okx and gate perpetuals). */
  sizes: Map<number, number>;
}

/**
 * The book manager of an ingest worker: one DepthFeed per exchange and market type, created on
 * first use with its own ccxt client and the venue's pacers, and one poll that flushes every
 * changed book to the serving thread as one batch.
 */
export class DepthFeeds {
  private readonly feeds = new Map<string, Promise<FeedSlot>>();
  /** The feeds created so far, for the synchronous poll. */
  private readonly ready = new Map<string, FeedSlot>();
  private readonly writer = new BookBatchWriter();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: DepthFeedsOptions) {
    this.timer = setInterval(() => this.poll(), options.pollMs);
    this.timer.unref();
  }

  /** The books `exchange` holds in `market`: replaces the previous set; unlisted tickers are skipped. */
  hold(exchange: ExchangeName, market: Market, entries: readonly HeldBookEntry[]): void {
    void this.slot(exchange, market).then(async (slot) => {
      const markets = await this.options.markets(exchange);
      const symbols = symbolsByTicker(markets, venueOf(exchange).quoteCurrency);
      const wanted = new Map<string, number>();
      for (const { id, ticker } of entries) {
        const symbol = symbols.get(`${market}|${ticker}`);
        const m = symbol === undefined ? undefined : markets[symbol];
        if (symbol === undefined || !m) continue;
        wanted.set(symbol, id);
        slot.sizes.set(id, m.contract ? (m.contractSize ?? 1) : 1);
      }
      if (!this.closed) slot.feed.hold(wanted);
    }).catch((err: unknown) => this.options.onError?.(exchange, [], err instanceof Error ? err.message : String(err)));
  }

  /** Reads every feed's changed books into one batch and hands it over. */
  poll(): void {
    for (const slot of this.ready.values()) {
      slot.feed.poll((id, at, bids, asks) => {
        const size = slot.sizes.get(id) ?? 1;
        this.writer.add(id, at, scaled(bids, size), scaled(asks, size));
      });
    }
    const batch = this.writer.take();
    if (batch) this.options.onBatch(batch);
  }

  /** Messages the exchange's depth sockets have received so far (both market types). */
  messages(exchange: ExchangeName): number {
    let n = 0;
    for (const [key, slot] of this.ready) if (key.startsWith(`${exchange}|`)) n += slot.feed.messages;
    return n;
  }

  /** Symbols subscribed per exchange and market type (`binance|SPOT`), for stats and tests. */
  subscribed(): Record<string, string[]> {
    return Object.fromEntries([...this.ready].map(([key, slot]) => [key, slot.feed.subscribed]));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const slots = await Promise.allSettled([...this.feeds.values()]);
    await Promise.all(slots.flatMap((s) => (s.status === 'fulfilled' ? [s.value.feed.close()] : [])));
  }

  private slot(exchange: ExchangeName, market: Market): Promise<FeedSlot> {
    const key = `${exchange}|${market}`;
    let slot = this.feeds.get(key);
    if (!slot) {
      slot = this.createSlot(exchange, market);
      this.feeds.set(key, slot);
      slot.then((ready) => this.ready.set(key, ready), () => this.feeds.delete(key));
    }
    return slot;
  }

  private async createSlot(exchange: ExchangeName, market: Market): Promise<FeedSlot> {
    // One client per market type: binance's `BTCUSDT` is spot and perpetual.
    const client = await this.options.createClient(exchange, market);
    const rule = venueOf(exchange).depth;
    const pacers: RequestPacer[] = [new WindowPacer(rule.perSecond, Math.ceil(1000 * DEPTH_WINDOW_MARGIN), this.options.clock)];
    if (rule.perHour !== null) pacers.push(new WindowPacer(rule.perHour, Math.ceil(3_600_000 * DEPTH_WINDOW_MARGIN), this.options.clock));
    const feed = new DepthFeed({
      client,
      perSubscribe: rule.perSubscribe,
      perUnsubscribe: rule.perUnsubscribe,
      pacers,
      clock: this.options.clock,
      retryMs: this.options.retryMs,
      onError: (symbols, reason) => this.options.onError?.(exchange, symbols, reason),
    });
    return { feed, sizes: new Map() };
  }
}

function scaled(levels: BookLevel[], size: number): BookLevel[] {
  return size === 1 ? levels : levels.map(([price, qty]) => [price, qty * size] as const);
}
