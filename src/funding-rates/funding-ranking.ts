import { buildEntry, comparatorOf, FUNDING_STALE_MS, isStale, NO_SETTLED, type FundingEntry, type FundingObservation, type FundingSortKey } from './funding.engine.js';
import { compactSymbol, type FundingQuery } from './funding-query.js';
import type { SettledFigures } from './settled-funding.cache.js';

/** One ranked entry with what the request path needs precomputed. */
interface Ranked {
  entry: FundingEntry;
  updatedAt: number;
  /** `BTCUSDT`, matched by the symbol filter. */
  compact: string;
}

export interface FundingPage {
  data: FundingEntry[];
  total: number;
  generatedAt: string;
}

/** The settled figures of a perpetual, read from the cache the collector refreshes. */
export type SettledLookup = (exchange: string, ticker: string) => SettledFigures;

/**
 * The sorted ranking of one collection, immutable once built: sorted ONCE per sort key (the
 * default at build, any other on its first request), then every request only filters and
 * slices. Staleness depends on the clock, not on the order, so when the earliest fresh entry
 * crosses 15 minutes the flags are refreshed in place of the order.
 */
export class FundingRanking {
  private ranked: Ranked[];
  private readonly sorted = new Map<FundingSortKey, Ranked[]>();
  private nextStaleAt: number;

  constructor(
    observations: readonly FundingObservation[],
    readonly builtAt: number,
    settled: SettledLookup = () => NO_SETTLED,
  ) {
    const compare = comparatorOf('apr');
    this.ranked = observations
      .map((o) => ({ entry: buildEntry(o, builtAt, settled(o.exchange, o.symbol)), updatedAt: o.updatedAt, compact: compactSymbol(o.symbol) }))
      .sort((a, b) => compare(a.entry, b.entry));
    this.nextStaleAt = this.firstStaleAt();
  }

  get size(): number {
    return this.ranked.length;
  }

  /** Every entry in the default order (the spreads are built from them). */
  get entries(): readonly FundingEntry[] {
    return this.ranked.map((r) => r.entry);
  }

  page(query: FundingQuery, now: number): FundingPage {
    if (now >= this.nextStaleAt) this.refreshStale(now);
    const { exchange, symbol, ticker, limit, offset } = query;
    const generatedAt = new Date(this.builtAt).toISOString();
    const ranked = this.order(query.sort);
    if (exchange === null && symbol === null && ticker === null) {
      return { data: ranked.slice(offset, offset + limit).map((r) => r.entry), total: ranked.length, generatedAt };
    }
    const data: FundingEntry[] = [];
    let total = 0;
    for (const r of ranked) {
      if (exchange !== null && r.entry.exchange !== exchange) continue;
      if (symbol !== null && !r.compact.includes(symbol)) continue;
      if (ticker !== null && !r.compact.includes(ticker)) continue;
      if (total >= offset && data.length < limit) data.push(r.entry);
      total++;
    }
    return { data, total, generatedAt };
  }

  private order(key: FundingSortKey): Ranked[] {
    if (key === 'apr') return this.ranked;
    let sorted = this.sorted.get(key);
    if (!sorted) {
      const compare = comparatorOf(key);
      this.sorted.set(key, (sorted = [...this.ranked].sort((a, b) => compare(a.entry, b.entry))));
    }
    return sorted;
  }

  private refreshStale(now: number): void {
    this.ranked = this.ranked.map((r) => {
      const stale = isStale(r.updatedAt, now);
      return stale === r.entry.stale ? r : { ...r, entry: { ...r.entry, stale } };
    });
    this.sorted.clear();
    this.nextStaleAt = this.firstStaleAt();
  }

  private firstStaleAt(): number {
    let first = Infinity;
    for (const r of this.ranked) if (!r.entry.stale) first = Math.min(first, r.updatedAt + FUNDING_STALE_MS);
    return first;
  }
}
