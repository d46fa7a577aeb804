import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { Clock } from '../clock.js';
import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../../market-model/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data.constants.js';
import type { MarketDataSource } from '../market-data-source.js';
import { AppError } from '../../common/errors/app-error.js';
import { bookNotHeld, parseBookQuery } from './book-query.js';
import type { MarketBookDto } from './dto/market-book.dto.js';
import { BOOK_UNKNOWN_AFTER_MS, type DepthBook, type DepthSource, type FlatLevels, isDepthSource } from './depth-book.js';
import { DepthRouteTracker, type TrackedRoute } from './depth-route-tracker.js';

/** How often routes past their grace period release their books. */
export const DEPTH_SWEEP_MS = 1000;
/** Route events are ranked at most this often: the books a burst of them asks for, at once. */
export const DEPTH_APPLY_MS = 100;

/** Flat levels as the API writes them: [price, qty] pairs. */
function pairsOf(levels: FlatLevels): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k + 1 < levels.length; k += 2) out.push([levels[k], levels[k + 1]]);
  return out;
}

const bookKey = (exchange: ExchangeName, market: Market, ticker: string): string => `${exchange}|${market}|${ticker}`;

/**
 * Order books of open routes, on the serving thread: route events (from the opportunity
 * detector) decide which spot books are held, the ingest workers keep them, and their updates
 * land here. Only the latest state of each held book is kept; a released book is forgotten.
 */
@Injectable()
export class DepthService implements OnModuleInit, OnModuleDestroy {
  private readonly source: DepthSource | null;
  private readonly exchanges: readonly ExchangeName[];
  private readonly tracker: DepthRouteTracker | null;
  private readonly latest = new Map<string, DepthBook>();
  private readonly heldTickers = new Map<ExchangeName, ReadonlySet<string>>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private applyTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(MARKET_DATA_SOURCE) source: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
  ) {
    const { depth } = config.marketData;
    this.exchanges = config.marketData.exchanges;
    this.source = depth.enabled && isDepthSource(source) ? source : null;
    this.tracker = this.source
      ? new DepthRouteTracker({
        maxBooks: depth.maxBooks,
        graceMs: depth.graceMs,
        hold: (exchange, tickers) => this.hold(exchange, tickers),
        schedule: (flush) => {
          this.applyTimer = setTimeout(() => {
            this.applyTimer = null;
            flush();
          }, DEPTH_APPLY_MS);
          this.applyTimer.unref();
        },
      })
      : null;
  }

  onModuleInit(): void {
    if (!this.source) return;
    this.subscription = this.source.books.subscribe((book) => this.update(book));
    this.timer = setInterval(() => this.tracker?.sweep(this.clock.now()), DEPTH_SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    if (this.applyTimer) clearTimeout(this.applyTimer);
  }

  get enabled(): boolean {
    return this.tracker !== null;
  }

  routeOpened(route: TrackedRoute, at: number, spreadPercent: number): void {
    this.tracker?.opened(route, at, spreadPercent);
  }

  routeTouched(route: TrackedRoute, spreadPercent: number): void {
    this.tracker?.touched(route, spreadPercent);
  }

  routeEnded(route: TrackedRoute, at: number): void {
    this.tracker?.closed(route, at);
  }

  /** The held book's latest state, however old; null when the book is not held or has no state yet. */
  book(exchange: ExchangeName, market: Market, ticker: string): DepthBook | null {
    return this.latest.get(bookKey(exchange, market, ticker)) ?? null;
  }

  /** GET /v1/market/books: the held book of the query's market, or 404 `book not held` naming the ones held. */
  bookFor(query: Record<string, unknown>): MarketBookDto {
    const { exchange, market, ticker } = parseBookQuery(query, this.exchanges);
    const book = this.book(exchange, market, ticker);
    if (!book) throw AppError.notFound(bookNotHeld(exchange, this.enabled ? this.heldTickersOf(exchange) : null));
    return {
      exchange, market, ticker,
      bids: pairsOf(book.bids),
      asks: pairsOf(book.asks),
      ageMs: Math.max(0, this.clock.now() - book.receivedAt),
    };
  }

  /** The book when known: held, with a state no older than BOOK_UNKNOWN_AFTER_MS. */
  knownBook(exchange: ExchangeName, market: Market, ticker: string, now: number): DepthBook | null {
    const book = this.book(exchange, market, ticker);
    return book && now - book.receivedAt <= BOOK_UNKNOWN_AFTER_MS ? book : null;
  }

  /** Books held with a state, per configured exchange (/health/market). */
  heldCounts(): Record<ExchangeName, number> {
    const counts = Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, 0])) as Record<ExchangeName, number>;
    for (const book of this.latest.values()) counts[book.exchange] += 1;
    return counts;
  }

  /** Tickers of the exchange's books held with a state (the ones bookFor answers), sorted. */
  private heldTickersOf(exchange: ExchangeName): string[] {
    const out: string[] = [];
    for (const book of this.latest.values()) if (book.exchange === exchange) out.push(book.ticker);
    return out.sort();
  }

  private hold(exchange: ExchangeName, tickers: readonly string[]): void {
    const held = new Set(tickers);
    this.heldTickers.set(exchange, held);
    for (const [key, book] of this.latest) {
      if (book.exchange === exchange && !held.has(book.ticker)) this.latest.delete(key);
    }
    this.source?.holdBooks(exchange, 'SPOT', tickers);
  }

  private update(book: DepthBook): void {
    // A book released while its last update crossed from the worker is not taken back.
    if (book.market !== 'SPOT' || !this.heldTickers.get(book.exchange)?.has(book.ticker)) return;
    this.latest.set(bookKey(book.exchange, book.market, book.ticker), book);
  }
}
