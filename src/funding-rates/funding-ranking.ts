import { buildEntry, compareEntries, FUNDING_STALE_MS, isStale, type FundingEntry, type FundingObservation } from './funding.engine.js';
import { compactSymbol, type FundingQuery } from './funding-query.js';

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

/**
 * The sorted ranking of one collection, immutable once built: sorted ONCE here, then every
 * request only filters and slices. Staleness depends on the clock, not on the order, so when
 * the earliest fresh entry crosses 15 minutes the flags are refreshed in place of the order.
 */
export class FundingRanking {
  private ranked: Ranked[];
  private nextStaleAt: number;

  constructor(
    observations: readonly FundingObservation[],
    readonly builtAt: number,
  ) {
    this.ranked = observations
      .map((o) => ({ entry: buildEntry(o, builtAt), updatedAt: o.updatedAt, compact: compactSymbol(o.symbol) }))
      .sort((a, b) => compareEntries(a.entry, b.entry));
    this.nextStaleAt = this.firstStaleAt();
  }

  get size(): number {
    return this.ranked.length;
  }

  page(query: FundingQuery, now: number): FundingPage {
    if (now >= this.nextStaleAt) this.refreshStale(now);
    const { exchange, symbol, limit, offset } = query;
    const generatedAt = new Date(this.builtAt).toISOString();
    if (exchange === null && symbol === null) {
      return { data: this.ranked.slice(offset, offset + limit).map((r) => r.entry), total: this.ranked.length, generatedAt };
    }
    const data: FundingEntry[] = [];
    let total = 0;
    for (const r of this.ranked) {
      if (exchange !== null && r.entry.exchange !== exchange) continue;
      if (symbol !== null && !r.compact.includes(symbol)) continue;
      if (total >= offset && data.length < limit) data.push(r.entry);
      total++;
    }
    return { data, total, generatedAt };
  }

  private refreshStale(now: number): void {
    this.ranked = this.ranked.map((r) => {
      const stale = isStale(r.updatedAt, now);
      return stale === r.entry.stale ? r : { ...r, entry: { ...r.entry, stale } };
    });
    this.nextStaleAt = this.firstStaleAt();
  }

  private firstStaleAt(): number {
    let first = Infinity;
    for (const r of this.ranked) if (!r.entry.stale) first = Math.min(first, r.updatedAt + FUNDING_STALE_MS);
    return first;
  }
}
