import { dec, roundAmount, roundPercent, type Dec } from '../money/money.js';
import { type CalendarUnit, saoPauloDayResolver, saoPauloPeriodOf } from '../time/sao-paulo.js';
import type { ClosedTrade, MetricsPeriod } from './trade.js';

export interface EquityPoint {
  time: number;
  equityUsd: number;
}

export interface BreakdownRow {
  /** `YYYY-MM-DD` for a day, the Monday that starts a week, `YYYY-MM` for a month (São Paulo calendar). */
  period: string;
  trades: number;
  netUsd: number;
  winRate: number;
}

/** The most points an equity curve answers. */
export const EQUITY_CURVE_POINTS = 500;

/**
 * The equity after each trade (capital at the period start first), downsampled by time: the
 * period is cut into `maxPoints − 1` equal spans after the first point, and each span keeps the
 * last point that falls in it.
 */
export function equityCurveOf(trades: readonly ClosedTrade[], capital: number, period: MetricsPeriod, maxPoints = EQUITY_CURVE_POINTS): EquityPoint[] {
  const points: EquityPoint[] = [{ time: period.start, equityUsd: roundAmount(dec(capital)) }];
  const spans = maxPoints - 1;
  const width = Math.max(1, period.end - period.start) / spans;
  let equity = dec(capital);
  let lastSpan = -1;
  for (const trade of trades) {
    equity = equity.plus(trade.profitUsd);
    const span = Math.min(spans - 1, Math.max(0, Math.floor((trade.closedAt - period.start) / width)));
    const point = { time: trade.closedAt, equityUsd: roundAmount(equity) };
    if (span === lastSpan) points[points.length - 1] = point;
    else points.push(point);
    lastSpan = span;
  }
  return points;
}

/** Trades summed per São Paulo day, week (from Monday) or month of closing; oldest first. */
export function breakdownOf(trades: readonly ClosedTrade[], unit: CalendarUnit): BreakdownRow[] {
  const dayOf = saoPauloDayResolver();
  const rows = new Map<string, { trades: number; wins: number; net: Dec }>();
  for (const trade of trades) {
    const period = saoPauloPeriodOf(dayOf(trade.closedAt), unit);
    const row = rows.get(period) ?? { trades: 0, wins: 0, net: dec(0) };
    row.trades += 1;
    if (trade.profitUsd > 0) row.wins += 1;
    row.net = row.net.plus(trade.profitUsd);
    rows.set(period, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([period, r]) => ({ period, trades: r.trades, netUsd: roundAmount(r.net), winRate: roundPercent(dec(r.wins).div(r.trades).times(100)) }));
}
