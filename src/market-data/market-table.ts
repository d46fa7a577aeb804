import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-model/exchanges.js';

/** A market a tick batch's market index stands for. */
export interface MarketRef {
  readonly exchange: ExchangeName;
  readonly market: Market;
  /** Canonical `BASE-QUOTE`. */
  readonly ticker: string;
}

interface Entry extends MarketRef {
  /** Position of the exchange in EXCHANGE_NAMES, kept beside it for per-exchange counters. */
  readonly exchangeIndex: number;
}

/** `exchange|market|ticker`: the table's key, and an entry as the relay stores it. */
export const encodeMarketRef = (ref: MarketRef): string => `${ref.exchange}|${ref.market}|${ref.ticker}`;

/**
 * The one market table of a process: what each market index of a tick batch stands for. The
 * process that runs the feeds assigns an index when a market is first watched; a process that
 * only serves (ROLE=api) fills the table from the ingest process's copy in Redis. The quote book,
 * the latency counters and the relay all read batches through this table, so indexes never
 * become strings or objects before the book.
 */
export class MarketTable {
  private readonly entries: Entry[] = [];
  private readonly indexes = new Map<string, number>();

  /** Markets with an index (the highest index plus one on a serving-only process). */
  get size(): number {
    return this.entries.length;
  }

  /** The market's index, assigned on first use. */
  indexOf(ref: MarketRef): number {
    const key = encodeMarketRef(ref);
    const known = this.indexes.get(key);
    if (known !== undefined) return known;
    const index = this.entries.length;
    this.store(index, ref, key);
    return index;
  }

  /** Records an index assigned by another process (the ingest process's table, read from Redis). */
  define(index: number, ref: MarketRef): void {
    if (!Number.isInteger(index) || index < 0) return;
    this.store(index, ref, encodeMarketRef(ref));
  }

  at(index: number): MarketRef | undefined {
    return this.entries[index];
  }

  /** EXCHANGE_NAMES position of the market's exchange, -1 for an unknown index. */
  exchangeIndexAt(index: number): number {
    return this.entries[index]?.exchangeIndex ?? -1;
  }

  /** Every entry from `from` on as `index -> exchange|market|ticker` (what the relay stores in Redis). */
  encoded(from = 0): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = from; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry) out[String(i)] = encodeMarketRef(entry);
    }
    return out;
  }

  /** Forgets every index (a serving process meeting a new ingest process, whose indexes differ). */
  clear(): void {
    this.entries.length = 0;
    this.indexes.clear();
  }

  private store(index: number, ref: MarketRef, key: string): void {
    const exchangeIndex = EXCHANGE_NAMES.indexOf(ref.exchange);
    this.entries[index] = { exchange: ref.exchange, market: ref.market, ticker: ref.ticker, exchangeIndex };
    this.indexes.set(key, index);
  }
}
