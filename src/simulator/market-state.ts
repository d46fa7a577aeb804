import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-data/exchanges.js';
import { FundingBook, type SimFunding } from './funding-state.js';
import { NetworkBook } from './network-state.js';
import { buildInstrument, roundToStep, type Instrument } from './instruments.js';

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
  private readonly instrumentsByTicker = new Map<string, Instrument>();
  private readonly quotes = new Map<string, SimQuote>();
  private readonly pausedKeys = new Set<string>();
  /** Markets an exchange has delisted (POST /_sim/delist): gone from its REST lists, never pushed. */
  private readonly delistedKeys = new Set<string>();
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

  /** Listed markets matching the filter (delisted ones are left out). */
  list(filter: MarketFilter = {}): SimQuote[] {
    return [...this.quotes.values()].filter((q) => matchesFilter(filter, q) && this.isListed(q.exchange, q.market, q.ticker));
  }

  /** The instruments an exchange lists on this market, as its REST market lists show them. */
  listed(exchange: ExchangeName, market: Market): Instrument[] {
    return this.instruments.filter((i) => this.isListed(exchange, market, i.ticker));
  }

  isListed(exchange: ExchangeName, market: Market, ticker: string): boolean {
    return this.delistedKeys.size === 0 || !this.delistedKeys.has(key(exchange, market, ticker));
  }

  /** Delists (or lists again) a ticker on an exchange, on one market or both; answers how many changed. */
  setDelisted(exchange: ExchangeName, ticker: string, delisted: boolean, market?: Market): number {
    let changed = 0;
    for (const m of market ? [market] : (['SPOT', 'FUTURES'] as const)) {
      const k = key(exchange, m, ticker);
      if (delisted === this.delistedKeys.has(k)) continue;
      if (delisted) this.delistedKeys.add(k);
      else this.delistedKeys.delete(k);
      changed++;
    }
    return changed;
  }

  delisted(): { exchange: ExchangeName; market: Market; ticker: string }[] {
    return [...this.delistedKeys].map((k) => {
      const [exchange, market, ticker] = k.split('|') as [ExchangeName, Market, string];
      return { exchange, market, ticker };
    });
  }

  /** Applies an update and notifies subscribers at once (paused markets stay silent). */
  apply(update: QuoteUpdate, now = Date.now()): SimQuote {
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
