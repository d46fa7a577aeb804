import type { FundingEntry } from './funding.engine.js';
import type { AprWindowDays } from './funding-history.engine.js';
import { rankSpreads, type FundingSpread, type SpreadLegInput } from './funding-spread.engine.js';
import type { SpreadsQuery } from './funding-extra-query.js';

export interface SpreadsPage {
  data: FundingSpread[];
  total: number;
  generatedAt: string;
}

/** Perpetual mid of an exchange's coin when a fresh quote is known. */
export type MidLookup = (exchange: string, ticker: string) => number | null;

const settledOf = (e: FundingEntry, days: AprWindowDays): number | null =>
  days === 1 ? e.apr1d : days === 3 ? e.apr3d : days === 7 ? e.apr7d : e.apr30d;

/**
 * The funding spreads of one ranking, ranked once per `days` (on its first request) from the
 * ranking's entries and the mids of the moment it was built; requests only filter and slice.
 */
export class FundingSpreads {
  private readonly ranked = new Map<AprWindowDays, FundingSpread[]>();
  private readonly mids = new Map<string, number | null>();

  constructor(
    private readonly entries: readonly FundingEntry[],
    readonly builtAt: number,
    mid: MidLookup,
  ) {
    for (const e of entries) this.mids.set(`${e.exchange}|${e.symbol}`, mid(e.exchange, e.symbol));
  }

  page(query: SpreadsQuery): SpreadsPage {
    const all = this.rank(query.days);
    // Ranked by aprSpread, so the entries at or above the floor are a prefix.
    let end = 0;
    while (end < all.length && (all[end]?.aprSpread ?? -Infinity) >= query.minAprSpread) end++;
    return { data: all.slice(query.offset, Math.min(end, query.offset + query.limit)), total: end, generatedAt: new Date(this.builtAt).toISOString() };
  }

  private rank(days: AprWindowDays): FundingSpread[] {
    let ranked = this.ranked.get(days);
    if (!ranked) {
      const byTicker = new Map<string, SpreadLegInput[]>();
      for (const e of this.entries) {
        if (e.fundingRate === null || e.fundingIntervalSeconds === null || e.aprPercent === null) continue;
        const leg: SpreadLegInput = {
          exchange: e.exchange, fundingRate: e.fundingRate, intervalSeconds: e.fundingIntervalSeconds, apr: e.aprPercent,
          settledApr: settledOf(e, days), apr7d: e.apr7d, mid: this.mids.get(`${e.exchange}|${e.symbol}`) ?? null,
        };
        byTicker.set(e.symbol, [...(byTicker.get(e.symbol) ?? []), leg]);
      }
      this.ranked.set(days, (ranked = rankSpreads(byTicker)));
    }
    return ranked;
  }
}
