import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-model/exchanges.js';
import { FundingBook, type SimFunding } from './funding-state.js';
import { NetworkBook } from './network-state.js';
import { buildInstrument, roundToStep, type Instrument } from './instruments.js';
import { DepthBooks, type BookLevels, type BookView } from './depth-book.js';

/** The current top of book of one simulated market. Quantities are in base units. */
export interface SimQuote {
  exchange: ExchangeName;
  market: Market;
  ticker: string;
  bid: number;
  ask: number;
  bidQty: number;
  askQty: number;
  /** 24 h volume in the quote currency (USDT). */
  volume: number;
  updatedAt: number;
  /** Increases with every change; exchanges send it as their update id. */
  seq: number;
}

export type QuoteUpdate = Pick<SimQuote, 'exchange' | 'market' | 'ticker' | 'bid' | 'ask'> &
  Partial<Pick<SimQuote, 'bidQty' | 'askQty' | 'volume'>>;

/** `PUT /_sim/books`: a market's book set exactly; its best levels become the quote. */
export interface BookUpdate extends BookLevels {
  exchange: ExchangeName;
  market: Market;
  ticker: string;
}

export interface MarketFilter {
  exchange?: ExchangeName;
  market?: Market;
  ticker?: string;
}

type QuoteListener = (quote: SimQuote) => void;

const key = (exchange: ExchangeName, market: Market, ticker: string): string =>
  `${exchange}|${market}|${ticker}`;

export function matchesFilter(filter: MarketFilter, q: Pick<SimQuote, 'exchange' | 'market' | 'ticker'>): boolean {
  return (
    (filter.exchange === undefined || filter.exchange === q.exchange) &&
    (filter.market === undefined || filter.market === q.market) &&
    (filter.ticker === undefined || filter.ticker === q.ticker)
  );
}

/** Shared state of every simulated market; the exchange protocols only read and render it. */
export class MarketState {
  readonly instruments: readonly Instrument[];
  /** Funding of every perpetual (PUT /_sim/funding); rendered by each exchange's REST calls. */
  readonly funding: FundingBook;
  /** Currency networks (PUT /_sim/networks); rendered by the exchanges' public currency calls. */
  readonly networks = new NetworkBook();
  /** The L2 book of every market, around its quote (PUT /_sim/books sets one exactly). */
  readonly depth = new DepthBooks();
  private readonly instrumentsByTicker = new Map<string, Instrument>();
  private readonly quotes = new Map<string, SimQuote>();
  private readonly pausedKeys = new Set<string>();
  /**
   * Markets an exchange has halted or delisted (POST /_sim/halt, /_sim/delist): still in its REST
   * market lists with the venue's own status field, never pushed, a new subscribe refused.
   */
  private readonly statusKeys = new Map<string, 'halted' | 'delisted'>();
  private readonly listeners = new Set<QuoteListener>();
  private seq = 0;

  constructor(bases: readonly string[], now: () => number = Date.now) {
    this.instruments = bases.map(buildInstrument);
    this.funding = new FundingBook(this.instruments);
    const started = now();
    for (const instrument of this.instruments) {
      this.instrumentsByTicker.set(instrument.ticker, instrument);
      for (const exchange of EXCHANGE_NAMES) {
        for (const market of ['SPOT', 'FUTURES'] as const) {
          this.quotes.set(key(exchange, market, instrument.ticker), this.initialQuote(exchange, market, instrument, started));
        }
      }
    }
  }

  instrument(ticker: string): Instrument | undefined {
    return this.instrumentsByTicker.get(ticker);
  }

  get(exchange: ExchangeName, market: Market, ticker: string): SimQuote | undefined {
    return this.quotes.get(key(exchange, market, ticker));
  }

  /** Trading markets matching the filter (halted and delisted ones are left out). */
  list(filter: MarketFilter = {}): SimQuote[] {
    return [...this.quotes.values()].filter((q) => matchesFilter(filter, q) && this.isListed(q.exchange, q.market, q.ticker));
  }

  /** The instruments an exchange lists on this market, halted and delisted ones included (their status says so). */
  listed(_exchange: ExchangeName, _market: Market): readonly Instrument[] {
    return this.instruments;
  }

  /** Whether the exchange trades this market now: pushed, and a subscribe accepted. */
  isListed(exchange: ExchangeName, market: Market, ticker: string): boolean {
    return this.statusKeys.size === 0 || !this.statusKeys.has(key(exchange, market, ticker));
  }

  statusOf(exchange: ExchangeName, market: Market, ticker: string): 'trading' | 'halted' | 'delisted' {
    return this.statusKeys.get(key(exchange, market, ticker)) ?? 'trading';
  }

  /** Sets a ticker's status on an exchange, on one market or both; answers how many changed. */
  setStatus(exchange: ExchangeName, ticker: string, status: 'trading' | 'halted' | 'delisted', market?: Market): number {
    let changed = 0;
    for (const m of market ? [market] : (['SPOT', 'FUTURES'] as const)) {
      const k = key(exchange, m, ticker);
      if ((this.statusKeys.get(k) ?? 'trading') === status) continue;
      if (status === 'trading') this.statusKeys.delete(k);
      else this.statusKeys.set(k, status);
      changed++;
    }
    return changed;
  }

  /** Delists (or lists again) a ticker on an exchange, on one market or both; answers how many changed. */
  setDelisted(exchange: ExchangeName, ticker: string, delisted: boolean, market?: Market): number {
    return this.setStatus(exchange, ticker, delisted ? 'delisted' : 'trading', market);
  }

  delisted(): { exchange: ExchangeName; market: Market; ticker: string }[] {
    return this.withStatus('delisted');
  }

  halted(): { exchange: ExchangeName; market: Market; ticker: string }[] {
    return this.withStatus('halted');
  }

  private withStatus(status: 'halted' | 'delisted'): { exchange: ExchangeName; market: Market; ticker: string }[] {
    return [...this.statusKeys].filter(([, s]) => s === status).map(([k]) => {
      const [exchange, market, ticker] = k.split('|') as [ExchangeName, Market, string];
      return { exchange, market, ticker };
    });
  }

  /** The current book of a market (generated around its quote unless set exactly). */
  book(q: SimQuote): BookView | undefined {
    const i = this.instrument(q.ticker);
    return i ? this.depth.current(q, i) : undefined;
  }

  /** Sets a book exactly: its best levels become the quote, pushed at once like any quote. */
  applyBook(update: BookUpdate, now = Date.now()): SimQuote {
    const [bid] = update.bids;
    const [ask] = update.asks;
    if (!bid || !ask) throw new Error('a book needs a level on each side');
    const quote = { exchange: update.exchange, market: update.market, ticker: update.ticker, bid: bid[0], bidQty: bid[1], ask: ask[0], askQty: ask[1] };
    return this.apply(quote, now, { bids: update.bids, asks: update.asks });
  }

  /**
   * Applies an update and notifies subscribers at once (paused markets stay silent). A new quote
   * re-centres the market's generated book; `levels` sets the book exactly instead.
   */
  apply(update: QuoteUpdate, now = Date.now(), levels?: BookLevels): SimQuote {
    const current = this.get(update.exchange, update.market, update.ticker);
    if (!current) throw new Error(`unknown market ${update.exchange} ${update.market} ${update.ticker}`);
    const next: SimQuote = {
      ...current,
      bid: update.bid,
      ask: update.ask,
      bidQty: update.bidQty ?? current.bidQty,
      askQty: update.askQty ?? current.askQty,
      volume: update.volume ?? current.volume,
      updatedAt: now,
      seq: ++this.seq,
    };
    this.quotes.set(key(next.exchange, next.market, next.ticker), next);
    if (levels) this.depth.setExact(next, levels);
    if (!this.isPaused(next)) for (const listener of this.listeners) listener(next);
    return next;
  }

  /** The funding's own mark price, else the mid of the perpetual's book. */
  markPrice(f: SimFunding): number | null {
    if (f.markPrice !== null) return f.markPrice;
    const q = this.get(f.exchange, 'FUTURES', f.ticker);
    return q ? (q.bid + q.ask) / 2 : null;
  }

  onQuote(listener: QuoteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Pauses or resumes every matching market; answers how many matched. */
  setPaused(filter: MarketFilter, paused: boolean): number {
    const matching = this.list(filter);
    for (const q of matching) {
      const k = key(q.exchange, q.market, q.ticker);
      if (paused) this.pausedKeys.add(k);
      else this.pausedKeys.delete(k);
    }
    return matching.length;
  }

  isPaused(q: Pick<SimQuote, 'exchange' | 'market' | 'ticker'>): boolean {
    return this.pausedKeys.has(key(q.exchange, q.market, q.ticker));
  }

  pausedCount(): number {
    return this.pausedKeys.size;
  }

  private initialQuote(exchange: ExchangeName, market: Market, i: Instrument, now: number): SimQuote {
    const bid = roundToStep(i.mid - i.tick, i.tick);
    const ask = roundToStep(i.mid + i.tick, i.tick);
    // About 25k USDT resting on each side, rounded to the lot step.
    const qty = Math.max(i.lotStep, roundToStep(25_000 / i.mid, i.lotStep));
    const volume = market === 'SPOT' ? i.volume : i.volume * 2.4; // perpetuals trade more
    return { exchange, market, ticker: i.ticker, bid, ask, bidQty: qty, askQty: qty, volume, updatedAt: now, seq: 0 };
  }
}
