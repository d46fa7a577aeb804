import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { Clock } from '../clock.js';
import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../../market-model/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data.constants.js';
import type { MarketDataSource } from '../market-data-source.js';
import { AppError } from '../../common/errors/app-error.js';
import { BOOK_503, bookNotHeld, parseBookQuery } from './book-query.js';
import { BookDemand, bookKeyOf } from './book-demand.js';
import type { MarketBookDto } from './dto/market-book.dto.js';
import { BOOK_UNKNOWN_AFTER_MS, type DepthBook, type DepthSource, type FlatLevels, isDepthSource } from './depth-book.js';
import { DepthRouteTracker, type TrackedRoute } from './depth-route-tracker.js';

/** How often routes past their grace period release their books. */
export const DEPTH_SWEEP_MS = 1000;
/** Route events are ranked at most this often: the books a burst of them asks for, at once. */
export const DEPTH_APPLY_MS = 100;
/** A book asked for by name is held this long after its last request (rules: depth). */
export const DEPTH_DEMAND_HOLD_MS = 180_000;
/** Books asked for by name held at once, over every exchange and market type, beside the routes' DEPTH_MAX_BOOKS. */
export const DEPTH_DEMAND_MAX = 20;
/** How long a request for a book not yet held waits for its first state. */
export const DEPTH_DEMAND_WAIT_MS = 5_000;

/** Flat levels as the API writes them: [price, qty] pairs. */
function pairsOf(levels: FlatLevels): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k + 1 < levels.length; k += 2) out.push([levels[k], levels[k + 1]]);
  return out;
}


/**
 * Order books on the serving thread: route events (from the opportunity detector) decide which
 * spot books are held, a client asking for a book by name holds it for a while (spot or
 * perpetual), the ingest workers keep them, and their updates land here. Only the latest state
 * of each held book is kept; a released book is forgotten.
 */
@Injectable()
export class DepthService implements OnModuleInit, OnModuleDestroy {
  private readonly source: DepthSource | null;
  private readonly exchanges: readonly ExchangeName[];
  /** The live feeds run here: only then can a book be asked of a venue. */
  private readonly feedsOn: boolean;
  private readonly tracker: DepthRouteTracker | null;
  private readonly latest = new Map<string, DepthBook>();
  /** The spot tickers the routes hold, per exchange. */
  private readonly routeTickers = new Map<ExchangeName, ReadonlySet<string>>();
  private readonly demand = new BookDemand({ holdMs: DEPTH_DEMAND_HOLD_MS, max: DEPTH_DEMAND_MAX });
  /** The tickers held now per exchange and market type, as last told to the source (read per book update). */
  private readonly held = new Map<ExchangeName, Map<Market, ReadonlySet<string>>>();
  /** Requests waiting for a demanded book's first state, by book key. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private applyTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(MARKET_DATA_SOURCE) private readonly markets: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
  ) {
    const { depth } = config.marketData;
    this.exchanges = config.marketData.exchanges;
    this.feedsOn = config.marketData.websocketEnabled;
    this.source = depth.enabled && isDepthSource(markets) ? markets : null;
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
    this.timer = setInterval(() => this.sweep(this.clock.now()), DEPTH_SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    if (this.applyTimer) clearTimeout(this.applyTimer);
    for (const waiting of this.waiters.values()) for (const wake of waiting) wake();
    this.waiters.clear();
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
    return this.latest.get(bookKeyOf(exchange, market, ticker)) ?? null;
  }

  /**
   * GET /v1/market/books. A held book answers at once. Any other market the venue lists is asked
   * for (held DEPTH_DEMAND_HOLD_MS after the last request, within the venue's subscribe budget)
   * and answered with its first state, waited for up to DEPTH_DEMAND_WAIT_MS; 404 only for a
   * market the venue does not list (rules: depth).
   */
  async bookFor(query: Record<string, unknown>): Promise<MarketBookDto> {
    const { exchange, market, ticker } = parseBookQuery(query, this.exchanges);
    const held = this.book(exchange, market, ticker);
    if (held) return this.answer(held);
    if (!this.source) throw AppError.notFound(bookNotHeld(exchange, null, 'feeds off'));
    if (!this.feedsOn) throw AppError.notFound(bookNotHeld(exchange, this.heldBooksOf(exchange), 'feeds off'));
    const listings = await this.markets.listMarkets(exchange).catch(() => null);
    if (listings === null) throw AppError.unavailable(BOOK_503.markets(exchange));
    if (!listings.some((m) => m.market === market && m.ticker === ticker)) {
      throw AppError.notFound(bookNotHeld(exchange, this.heldBooksOf(exchange), { market, ticker }));
    }
    const key = bookKeyOf(exchange, market, ticker);
    const renewed = this.demand.has(key);
    if (!this.demand.demand(key, this.clock.now())) throw AppError.unavailable(BOOK_503.full(DEPTH_DEMAND_MAX));
    if (!renewed) this.apply(exchange, market);
    const book = this.book(exchange, market, ticker) ?? (await this.firstState(key));
    if (!book) throw AppError.unavailable(BOOK_503.late(exchange, DEPTH_DEMAND_WAIT_MS));
    return this.answer(book);
  }

  private answer(book: DepthBook): MarketBookDto {
    return {
      exchange: book.exchange, market: book.market, ticker: book.ticker,
      bids: pairsOf(book.bids),
      asks: pairsOf(book.asks),
      ageMs: Math.max(0, this.clock.now() - book.receivedAt),
    };
  }

  /** The book's first state, or null after DEPTH_DEMAND_WAIT_MS (or when the service stops). */
  private firstState(key: string): Promise<DepthBook | null> {
    return new Promise((resolve) => {
      let waiting = this.waiters.get(key);
      if (!waiting) this.waiters.set(key, (waiting = new Set()));
      const set = waiting;
      const wake = (): void => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0) this.waiters.delete(key);
        resolve(this.latest.get(key) ?? null);
      };
      const timer = setTimeout(wake, DEPTH_DEMAND_WAIT_MS);
      timer.unref();
      set.add(wake);
    });
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

  /** The exchange's books held with a state (the ones bookFor answers at once), `MARKET TICKER`, sorted. */
  private heldBooksOf(exchange: ExchangeName): string[] {
    const out: string[] = [];
    for (const book of this.latest.values()) if (book.exchange === exchange) out.push(`${book.market} ${book.ticker}`);
    return out.sort();
  }

  /** The routes' spot books of an exchange changed. */
  private hold(exchange: ExchangeName, tickers: readonly string[]): void {
    this.routeTickers.set(exchange, new Set(tickers));
    this.apply(exchange, 'SPOT');
  }

  private sweep(now: number): void {
    this.tracker?.sweep(now);
    const released = new Set(this.demand.sweep(now).map((key) => key.split('|').slice(0, 2).join('|')));
    for (const pair of released) {
      const [exchange, market] = pair.split('|') as [ExchangeName, Market];
      this.apply(exchange, market);
    }
  }

  /** The tickers held on one exchange and market type: the routes' (spot) and the ones asked for by name. */
  private heldSet(exchange: ExchangeName, market: Market): Set<string> {
    const held = new Set(market === 'SPOT' ? this.routeTickers.get(exchange) : []);
    for (const ticker of this.demand.tickers(exchange, market)) held.add(ticker);
    return held;
  }

  /** Tells the source the books now wanted on one exchange and market type, and forgets the released ones. */
  private apply(exchange: ExchangeName, market: Market): void {
    const held = this.heldSet(exchange, market);
    let byMarket = this.held.get(exchange);
    if (!byMarket) this.held.set(exchange, (byMarket = new Map<Market, ReadonlySet<string>>()));
    byMarket.set(market, held);
    for (const [key, book] of this.latest) {
      if (book.exchange === exchange && book.market === market && !held.has(book.ticker)) this.latest.delete(key);
    }
    this.source?.holdBooks(exchange, market, [...held]);
  }

  private update(book: DepthBook): void {
    // A book released while its last update crossed from the worker is not taken back.
    if (this.held.get(book.exchange)?.get(book.market)?.has(book.ticker) !== true) return;
    const key = bookKeyOf(book.exchange, book.market, book.ticker);
    this.latest.set(key, book);
    const waiting = this.waiters.get(key);
    if (waiting) for (const wake of [...waiting]) wake();
  }
}
