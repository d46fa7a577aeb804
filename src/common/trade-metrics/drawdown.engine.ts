import { AMOUNT_DECIMALS, dec, type Dec } from '../money/money.js';
import type { ClosedTrade, MetricsPeriod } from './trade.js';

export interface Drawdown {
  /** The deepest fall of the equity below its running peak, in USD (0 when it never fell). */
  maxUsd: Dec;
  /** That fall ÷ the peak it fell from × 100. */
  percent: Dec;
  /** When that peak was set (the period start for the starting capital) and when the trough closed. */
  start: number | null;
  end: number | null;
  /** The longest time below a peak: peak to the first close back at or above it, or to the period end. */
  longestMs: number;
}

/** The walk's findings on the running profit (equity minus capital). */
interface Walk<N> {
  depth: N;
  peakProfit: N;
  start: number | null;
  end: number | null;
  longestMs: number;
}

export const UNIT = 10 ** AMOUNT_DECIMALS;

/**
 * Drawdown of the equity curve: the capital at the period start, then capital plus the running
 * profit after each trade, in closing order. The capital cancels out of every comparison, so the
 * walk runs on the running profit: in whole units of 1e-8 USD in doubles when every profit (a
 * figure already rounded to 8 decimals) and every running sum is an exact integer there (a sweep
 * walks hundreds of thousands of trades), in decimal otherwise. Both give the same figures.
 */
export function drawdownOf(trades: readonly ClosedTrade[], capital: number, period: MetricsPeriod): Drawdown {
  const units = profitUnits(trades);
  const walk: Walk<Dec> = units ? inDecimal(walkUnits(trades, units, period)) : walkDecimal(trades, period);
  const peak = walk.peakProfit.plus(capital);
  return {
    maxUsd: walk.depth,
    percent: walk.depth.isZero() ? dec(0) : walk.depth.div(peak).times(100),
    start: walk.start,
    end: walk.end,
    longestMs: walk.longestMs,
  };
}

/** Each profit in units of 1e-8 when all of them and any sum of them are exact integers in doubles. */
export function profitUnits(trades: readonly ClosedTrade[]): number[] | null {
  const units: number[] = [];
  // Σ|u| bounds every partial sum of any subset (running profit, wins, losses, a day).
  let magnitude = 0;
  for (const { profitUsd } of trades) {
    const u = Math.round(profitUsd * UNIT);
    magnitude += Math.abs(u);
    if (!Number.isSafeInteger(magnitude) || u / UNIT !== profitUsd) return null;
    units.push(u);
  }
  return units;
}

const inDecimal = (w: Walk<number>): Walk<Dec> => ({ ...w, depth: dec(w.depth).div(UNIT), peakProfit: dec(w.peakProfit).div(UNIT) });

function walkUnits(trades: readonly ClosedTrade[], units: readonly number[], period: MetricsPeriod): Walk<number> {
  const w: Walk<number> = { depth: 0, peakProfit: 0, start: null, end: null, longestMs: 0 };
  let profit = 0;
  let peak = 0;
  let peakAt = period.start;
  let below = false;
  for (let i = 0; i < units.length; i++) {
    const closedAt = (trades[i]).closedAt;
    profit += units[i];
    if (profit >= peak) {
      if (below) w.longestMs = Math.max(w.longestMs, closedAt - peakAt);
      [below, peak, peakAt] = [false, profit, closedAt];
    } else {
      below = true;
      if (peak - profit > w.depth) [w.depth, w.peakProfit, w.start, w.end] = [peak - profit, peak, peakAt, closedAt];
    }
  }
  if (below) w.longestMs = Math.max(w.longestMs, period.end - peakAt);
  return w;
}

/** The same walk in decimal, for profits too large for exact doubles. */
function walkDecimal(trades: readonly ClosedTrade[], period: MetricsPeriod): Walk<Dec> {
  const w: Walk<Dec> = { depth: dec(0), peakProfit: dec(0), start: null, end: null, longestMs: 0 };
  let profit = dec(0);
  let peak = dec(0);
  let peakAt = period.start;
  let below = false;
  for (const { closedAt, profitUsd } of trades) {
    profit = profit.plus(profitUsd);
    if (profit.gte(peak)) {
      if (below) w.longestMs = Math.max(w.longestMs, closedAt - peakAt);
      [below, peak, peakAt] = [false, profit, closedAt];
    } else {
      below = true;
      const depth = peak.minus(profit);
      if (depth.gt(w.depth)) [w.depth, w.peakProfit, w.start, w.end] = [depth, peak, peakAt, closedAt];
    }
  }
  if (below) w.longestMs = Math.max(w.longestMs, period.end - peakAt);
  return w;
}
