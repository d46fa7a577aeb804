import { dec, roundPercent } from '../common/money/money.js';
import { NO_SETTLED_STATS } from './funding-history.engine.js';
import type { SettledFigures } from './settled-funding.cache.js';
/**
 * Funding-rate math (rules: funding): pure, no I/O, no clock of its own.
 * The collector feeds it what the exchanges answered; the controller serves what it returns.
 */
export const INTERVAL_SOURCES = ['exchange', 'derived_schedule', 'unavailable'] as const;
export type IntervalSource = (typeof INTERVAL_SOURCES)[number];

export const FUNDING_STRATEGIES = ['long_spot_short_perp', 'short_spot_long_perp', 'neutral', 'unavailable'] as const;
export type FundingStrategy = (typeof FUNDING_STRATEGIES)[number];

/** The `staleness` rule/8: an entry without update for 15 minutes is stale. */
export const FUNDING_STALE_MS = 15 * 60 * 1000;
const SECONDS_PER_YEAR = 365 * 86_400;

/** One entry of the ranking, exactly the members of the `funding` rule. */
export interface FundingEntry {
  readonly exchange: string;
  readonly contract: string;
  readonly symbol: string;
  readonly fundingRate: number | null;
  readonly fundingIntervalSeconds: number | null;
  readonly intervalSource: IntervalSource;
  readonly aprPercent: number | null;
  readonly nextFundingTime: string | null;
  readonly spotPrice: number | null;
  readonly markPrice: number | null;
  readonly strategy: FundingStrategy;
  readonly updatedAt: string;
  readonly stale: boolean;
  /** Settled APR over the last 1, 3, 7 and 30 days (percent), null without a payment in the window. */
  readonly apr1d: number | null;
  readonly apr3d: number | null;
  readonly apr7d: number | null;
  readonly apr30d: number | null;
  /** Coefficient of variation of the last 7 days' payments, null with fewer than 3. */
  readonly stability7d: number | null;
  /** The last settled rate, beside the predicted `fundingRate`. */
  readonly settledRate: number | null;
  /** When the funding interval last changed (RFC 3339), null if never seen. */
  readonly intervalChangedAt: string | null;
}

/** What one collection knows about one perpetual, before the arithmetic. */
export interface FundingObservation {
  exchange: string;
  contract: string;
  symbol: string;
  fundingRate: number | null;
  intervalSeconds: number | null;
  intervalSource: IntervalSource;
  /** Unix ms of the next payment, or null. */
  nextFundingTime: number | null;
  spotPrice: number | null;
  markPrice: number | null;
  /** Unix ms of the last successful read of this contract. */
  updatedAt: number;
}

const finite = (value: number | null): value is number => value !== null && Number.isFinite(value);

/**
 * The `funding` rule: rate × (365 × 86400 ÷ interval seconds) × 100; null when either is unknown. In decimal,
 * rounded once (README "Money and percent figures"): 0.0003 every 4 h is 65.7 %, not
 * 65.69999999999999. No range check: the figure comes from an exchange, not from a request.
 */
export function aprPercent(rate: number | null, intervalSeconds: number | null): number | null {
  if (!finite(rate) || !finite(intervalSeconds) || intervalSeconds <= 0) return null;
  return roundPercent(dec(rate).times(SECONDS_PER_YEAR).div(intervalSeconds).times(100));
}

/**
 * The `funding` rule: a positive rate is paid by longs to shorts, so the carry is long spot + short perp;
 * a negative rate the reverse.
 */
export function strategyOf(rate: number | null): FundingStrategy {
  if (!finite(rate)) return 'unavailable';
  if (rate > 0) return 'long_spot_short_perp';
  if (rate < 0) return 'short_spot_long_perp';
  return 'neutral';
}

/** "No update for 15 minutes": exactly 15 minutes old is already stale. */
export function isStale(updatedAt: number, now: number): boolean {
  return now - updatedAt >= FUNDING_STALE_MS;
}

/** A source without an interval has none, whatever it called itself. */
function sourceOf(o: FundingObservation): IntervalSource {
  return finite(o.intervalSeconds) && o.intervalSeconds > 0 ? o.intervalSource : 'unavailable';
}

/** The settled figures an entry carries; all null before any payment is known. */
export const NO_SETTLED: SettledFigures = { ...NO_SETTLED_STATS, intervalChangedAt: null };

export function buildEntry(o: FundingObservation, now: number, settled: SettledFigures = NO_SETTLED): FundingEntry {
  const intervalSource = sourceOf(o);
  const intervalSeconds = intervalSource === 'unavailable' ? null : o.intervalSeconds;
  const rate = finite(o.fundingRate) ? o.fundingRate : null;
  return {
    exchange: o.exchange,
    contract: o.contract,
    symbol: o.symbol,
    fundingRate: rate,
    fundingIntervalSeconds: intervalSeconds,
    intervalSource,
    aprPercent: aprPercent(rate, intervalSeconds),
    nextFundingTime: finite(o.nextFundingTime) ? new Date(o.nextFundingTime).toISOString() : null,
    spotPrice: finite(o.spotPrice) ? o.spotPrice : null,
    markPrice: finite(o.markPrice) ? o.markPrice : null,
    strategy: strategyOf(rate),
    updatedAt: new Date(o.updatedAt).toISOString(),
    stale: isStale(o.updatedAt, now),
    apr1d: settled.apr1d,
    apr3d: settled.apr3d,
    apr7d: settled.apr7d,
    apr30d: settled.apr30d,
    stability7d: settled.stability7d,
    settledRate: settled.settledRate,
    intervalChangedAt: settled.intervalChangedAt === null ? null : new Date(settled.intervalChangedAt).toISOString(),
  };
}

/** Plain code-unit order (rules: funding), not locale order: `B` < `a`, `_` > `Z`. */
function codeUnitCompare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * The `funding` rule with the `funding` rule's ties: APR descending (signed), entries without APR last, then
 * exchange, then original contract name.
 */
export function compareEntries(a: FundingEntry, b: FundingEntry): number {
  const aApr = a.aprPercent;
  const bApr = b.aprPercent;
  if (aApr !== null && bApr !== null && aApr !== bApr) return bApr - aApr;
  if (aApr === null && bApr !== null) return 1;
  if (aApr !== null && bApr === null) return -1;
  return codeUnitCompare(a.exchange, b.exchange) || codeUnitCompare(a.contract, b.contract);
}

/**
 * The ranking's sort keys. `apr` (the default) is the order above; `absApr` ranks by the size of
 * the predicted APR whatever its sign (a carry either way); the settled APRs and `settledRate`
 * rank high to low; `stability7d` low to high (the steadiest first). Entries without the figure
 * come last; ties by exchange, then contract.
 */
export const FUNDING_SORT_KEYS = ['apr', 'absApr', 'apr1d', 'apr3d', 'apr7d', 'apr30d', 'stability7d', 'settledRate'] as const;
export type FundingSortKey = (typeof FUNDING_SORT_KEYS)[number];

function figureOf(e: FundingEntry, key: FundingSortKey): number | null {
  switch (key) {
    case 'apr':
      return e.aprPercent;
    case 'absApr':
      return e.aprPercent === null ? null : Math.abs(e.aprPercent);
    case 'stability7d':
      return e.stability7d === null ? null : -e.stability7d;
    case 'apr1d':
    case 'apr3d':
    case 'apr7d':
    case 'apr30d':
    case 'settledRate':
      return e[key];
  }
}

/** The comparator of one sort key (figure descending, nulls last, then exchange and contract). */
export function comparatorOf(key: FundingSortKey): (a: FundingEntry, b: FundingEntry) => number {
  if (key === 'apr') return compareEntries;
  return (a, b) => {
    const x = figureOf(a, key);
    const y = figureOf(b, key);
    if (x !== null && y !== null && x !== y) return y - x;
    if (x === null && y !== null) return 1;
    if (x !== null && y === null) return -1;
    return codeUnitCompare(a.exchange, b.exchange) || codeUnitCompare(a.contract, b.contract);
  };
}

/** A sorted copy; the input is left as it was. */
export function rankEntries(entries: readonly FundingEntry[]): FundingEntry[] {
  return [...entries].sort(compareEntries);
}

/** Two reads of a contract's next payment time, each with the moment it was read. */
export interface ScheduleObservation {
  nextFundingTime: number;
  observedAt: number;
}

const MIN_DERIVED_SECONDS = 60;
const MAX_DERIVED_SECONDS = 7 * 86_400;

/**
 * The `funding` rule `derived_schedule`: when the next funding time moves forward between two reads, the move
 * is one interval, provided the reads are close enough together that no payment in between can
 * have been missed. Missing k ≥ 2 payments of interval I needs reads more than (k−1)·I apart,
 * which is at least half of the apparent k·I, so reads at most half the move apart are safe.
 * Whole seconds; null when nothing can be concluded.
 */
export function deriveIntervalSeconds(previous: ScheduleObservation, current: ScheduleObservation): number | null {
  const moveMs = current.nextFundingTime - previous.nextFundingTime;
  if (!(moveMs > 0)) return null;
  const seconds = Math.round(moveMs / 1000);
  if (seconds < MIN_DERIVED_SECONDS || seconds > MAX_DERIVED_SECONDS) return null;
  const gapMs = current.observedAt - previous.observedAt;
  return gapMs >= 0 && gapMs * 2 <= moveMs ? seconds : null;
}
