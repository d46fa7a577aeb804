import { dec, roundPercent, roundPrice } from '../common/money/money.js';

/**
 * The cross-exchange funding spread: pure, no I/O. For one coin with perpetuals on two or more
 * exchanges, long the perpetual with the lowest annualised predicted funding and short the one
 * with the highest: the short receives what the long does not pay.
 */
export interface SpreadLegInput {
  readonly exchange: string;
  readonly fundingRate: number;
  readonly intervalSeconds: number;
  /** Predicted APR in percent (already rounded once where it was computed). */
  readonly apr: number;
  /** Settled APR over the window asked for, percent, or null. */
  readonly settledApr: number | null;
  /** Settled 7-day APR, percent, or null. */
  readonly apr7d: number | null;
  /** Perpetual mid price (bid + ask) ÷ 2 when a fresh quote is known, else null. */
  readonly mid: number | null;
}

export interface SpreadLeg {
  exchange: string;
  fundingRate: number;
  intervalHours: number;
  /** Funding rate per hour, a fraction. */
  ratePerHour: number;
  apr: number;
}

export interface FundingSpread {
  ticker: string;
  long: SpreadLeg;
  short: SpreadLeg;
  aprSpread: number;
  avgAprSpread7d: number | null;
  /** The settled spread over the `days` asked for (the 7-day one when days is 7). */
  avgAprSpread: number | null;
  basisPercent: number | null;
}

function codeUnitCompare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function leg(input: SpreadLegInput): SpreadLeg {
  const intervalHours = input.intervalSeconds / 3600;
  return {
    exchange: input.exchange,
    fundingRate: input.fundingRate,
    intervalHours,
    ratePerHour: roundPrice(dec(input.fundingRate).div(intervalHours)),
    apr: input.apr,
  };
}

const difference = (high: number | null, low: number | null): number | null =>
  high === null || low === null ? null : roundPercent(dec(high).minus(dec(low)));

/** (short mid − long mid) ÷ long mid × 100: what the short perpetual trades above the long one. */
function basis(long: SpreadLegInput, short: SpreadLegInput): number | null {
  if (long.mid === null || short.mid === null || long.mid <= 0) return null;
  return roundPercent(dec(short.mid).minus(dec(long.mid)).div(dec(long.mid)).times(100));
}

/**
 * The pair with the largest APR difference for one coin, or null with fewer than two legs.
 * Ties pick by exchange name: the long is the first exchange among the lowest APRs, the short
 * the first among the highest of the others (so equal APRs still give two different exchanges).
 */
export function bestSpread(ticker: string, legs: readonly SpreadLegInput[]): FundingSpread | null {
  if (legs.length < 2) return null;
  const sorted = [...legs].sort((a, b) => a.apr - b.apr || codeUnitCompare(a.exchange, b.exchange));
  const long = sorted[0];
  let short: SpreadLegInput | undefined;
  for (const candidate of sorted.slice(1)) {
    if (!short || candidate.apr > short.apr) short = candidate;
  }
  if (!long || !short) return null;
  return {
    ticker,
    long: leg(long),
    short: leg(short),
    aprSpread: roundPercent(dec(short.apr).minus(dec(long.apr))),
    avgAprSpread7d: difference(short.apr7d, long.apr7d),
    avgAprSpread: difference(short.settledApr, long.settledApr),
    basisPercent: basis(long, short),
  };
}

/** Largest spread first; equal spreads by ticker in code-unit order. */
export function compareSpreads(a: FundingSpread, b: FundingSpread): number {
  return b.aprSpread - a.aprSpread || codeUnitCompare(a.ticker, b.ticker);
}

/** Every coin's best pair, ranked. */
export function rankSpreads(byTicker: ReadonlyMap<string, readonly SpreadLegInput[]>): FundingSpread[] {
  const out: FundingSpread[] = [];
  for (const [ticker, legs] of byTicker) {
    const spread = bestSpread(ticker, legs);
    if (spread) out.push(spread);
  }
  return out.sort(compareSpreads);
}
