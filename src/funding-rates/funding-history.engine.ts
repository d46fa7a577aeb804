import { Dec, dec, roundPercent, type Dec as Decimal } from '../common/money/money.js';

/**
 * Settled-funding math: pure, no I/O, no clock of its own. A settlement is one payment a venue
 * made at `settledAt`, at `rate` per interval of `intervalHours`.
 */
export interface Settlement {
  readonly settledAt: number;
  readonly rate: number;
  readonly intervalHours: number;
}

export const APR_WINDOWS_DAYS = [1, 3, 7, 30] as const;
export type AprWindowDays = (typeof APR_WINDOWS_DAYS)[number];

const DAY_MS = 86_400_000;
const HOURS_PER_YEAR = 365 * 24;
/** Settlements a coefficient of variation needs before it says anything. */
export const MIN_STABILITY_SETTLEMENTS = 3;

/** Settlements in the window (now − days, now], in the order given. */
export function inWindow(settlements: readonly Settlement[], now: number, days: number): Settlement[] {
  const from = now - days * DAY_MS;
  return settlements.filter((s) => s.settledAt > from && s.settledAt <= now);
}

/** One settlement annualised on its own interval, as a decimal fraction (not yet percent). */
function annualised(s: Settlement): Decimal {
  return dec(s.rate).times(HOURS_PER_YEAR).div(s.intervalHours);
}

/**
 * Annualised settled funding of a window, in percent, rounded once: the mean of the settlements'
 * annualised rates, each weighted by its own interval. With one interval throughout this is the
 * mean settled rate × settlements per year; across an interval change each payment counts for
 * the time it paid for, so 4 h payments are not counted twice as heavily as 8 h ones. A gap (a
 * missing settlement) leaves the time it would have covered out rather than counting it as 0.
 * Null when the window holds no settlement.
 */
export function settledApr(settlements: readonly Settlement[], now: number, days: number): number | null {
  const window = inWindow(settlements, now, days).filter((s) => s.intervalHours > 0);
  if (window.length === 0) return null;
  let paid = new Dec(0);
  let hours = new Dec(0);
  for (const s of window) {
    paid = paid.plus(dec(s.rate));
    hours = hours.plus(dec(s.intervalHours));
  }
  return roundPercent(paid.div(hours).times(HOURS_PER_YEAR).times(100));
}

/**
 * Coefficient of variation (population standard deviation ÷ |mean|) of the annualised rates of
 * the last 7 days' settlements, rounded once to 8 decimals. Annualised so that a venue moving a
 * contract from 8 h to 4 h (halving each payment) is not read as instability. Null with fewer
 * than 3 settlements, or a mean of exactly 0 (no scale to compare with).
 */
export function stability7d(settlements: readonly Settlement[], now: number): number | null {
  const window = inWindow(settlements, now, 7).filter((s) => s.intervalHours > 0);
  if (window.length < MIN_STABILITY_SETTLEMENTS) return null;
  const values = window.map(annualised);
  const n = values.length;
  const mean = values.reduce((sum, v) => sum.plus(v), new Dec(0)).div(n);
  if (mean.isZero()) return null;
  const variance = values.reduce((sum, v) => sum.plus(v.minus(mean).pow(2)), new Dec(0)).div(n);
  return roundPercent(variance.sqrt().div(mean.abs()));
}

/** Settlement intervals the venues use, in hours: a difference outside these is a gap. */
const KNOWN_INTERVAL_HOURS = new Set([1, 2, 4, 8]);

/**
 * The interval each settlement paid for, from the times alone (venue history calls state no
 * interval): the time since the previous settlement when that is a known interval, else (a gap)
 * the previous settlement's interval. The first takes the time to the second when known, else
 * `fallbackHours` (the interval the venue states now). Times ascending.
 */
export function intervalsFromTimes(times: readonly number[], fallbackHours: number): number[] {
  const out: number[] = [];
  times.forEach((t, i) => {
    const previous = i > 0 ? times[i - 1] : undefined;
    const diff = previous === undefined ? null : (t - previous) / 3_600_000;
    if (diff !== null && KNOWN_INTERVAL_HOURS.has(diff)) out.push(diff);
    else if (i > 0) out.push(out[i - 1] ?? fallbackHours);
    else {
      const next = times[1];
      const ahead = next === undefined ? null : (next - t) / 3_600_000;
      out.push(ahead !== null && KNOWN_INTERVAL_HOURS.has(ahead) ? ahead : fallbackHours);
    }
  });
  return out;
}

/** When the interval last changed within the settlements (ascending), or null if it never did. */
export function lastIntervalChange(settlements: readonly Settlement[]): number | null {
  for (let i = settlements.length - 1; i > 0; i--) {
    const s = settlements[i];
    const previous = settlements[i - 1];
    if (s && previous && s.intervalHours !== previous.intervalHours) return s.settledAt;
  }
  return null;
}

/** The settled figures one perpetual's ranking entry carries. */
export interface SettledStats {
  apr1d: number | null;
  apr3d: number | null;
  apr7d: number | null;
  apr30d: number | null;
  stability7d: number | null;
  settledRate: number | null;
}

export const NO_SETTLED_STATS: SettledStats = {
  apr1d: null, apr3d: null, apr7d: null, apr30d: null, stability7d: null, settledRate: null,
};

/** Every settled figure of one perpetual at `now`; settlements ascending. */
export function settledStats(settlements: readonly Settlement[], now: number): SettledStats {
  const settled = settlements.filter((s) => s.settledAt <= now);
  return {
    apr1d: settledApr(settled, now, 1),
    apr3d: settledApr(settled, now, 3),
    apr7d: settledApr(settled, now, 7),
    apr30d: settledApr(settled, now, 30),
    stability7d: stability7d(settled, now),
    settledRate: settled.at(-1)?.rate ?? null,
  };
}
