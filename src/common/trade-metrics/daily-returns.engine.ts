import { AMOUNT_DECIMALS, dec, type Dec } from '../money/money.js';
import { calendarDaysBetween, saoPauloDayOf, saoPauloDayResolver } from '../time/sao-paulo.js';
import { profitUnits } from './drawdown.engine.js';
import type { ClosedTrade, MetricsPeriod } from './trade.js';

/** The profit of the trades closed on one São Paulo day. */
export interface DayProfit {
  date: string;
  profit: Dec;
}

export interface DailyRatios {
  sharpe: Dec | null;
  sortino: Dec | null;
}

const SQRT_365 = dec(365).sqrt();

/**
 * Trades' profits summed per São Paulo day of closing; trades come in closing order. Summed in
 * whole units of 1e-8 USD when those are exact in doubles (see profitUnits), else in decimal.
 */
export function profitsByDay(trades: readonly ClosedTrade[]): DayProfit[] {
  const units = profitUnits(trades);
  const dayOf = saoPauloDayResolver();
  const days: { date: string; sum: number; profit: Dec }[] = [];
  for (let i = 0; i < trades.length; i++) {
    const { closedAt, profitUsd } = trades[i];
    const date = dayOf(closedAt);
    let last = days[days.length - 1];
    if (last?.date !== date) days.push((last = { date, sum: 0, profit: dec(0) }));
    if (units) last.sum += units[i];
    else last.profit = last.profit.plus(profitUsd);
  }
  return days.map((d) => ({ date: d.date, profit: units ? dec(d.sum).div(10 ** AMOUNT_DECIMALS) : d.profit }));
}

/** The São Paulo calendar days of a period, both ends counted (the end itself is exclusive). */
export function periodDays(period: MetricsPeriod): number {
  const last = Math.max(period.start, period.end - 1);
  return calendarDaysBetween(saoPauloDayOf(period.start), saoPauloDayOf(last));
}

/**
 * Sharpe and Sortino on daily returns, annualised with √365. Every São Paulo calendar day of
 * the period is one return: the day's profit ÷ the equity at the day's start (capital plus every
 * profit closed on earlier days); a day without trades returns 0. Sharpe = mean ÷ sample standard
 * deviation × √365; Sortino = mean ÷ downside deviation (√(Σ min(r, 0)² ÷ days)) × √365.
 * Null when there are fewer than two days, when the deviation is 0, or when the equity at the
 * start of a day with trades is 0 or below (a return on no capital is undefined).
 */
export function dailyRatios(days: readonly DayProfit[], capital: number, period: MetricsPeriod): DailyRatios {
  const none: DailyRatios = { sharpe: null, sortino: null };
  const n = periodDays(period);
  const returns = dailyReturns(days, capital);
  if (n < 2 || returns === null) return none;
  const mean = returns.reduce((sum, r) => sum.plus(r), dec(0)).div(n);
  // Days without trades return 0: each adds mean² to the squared deviations.
  let squares = mean.times(mean).times(n - returns.length);
  let downside = dec(0);
  for (const r of returns) {
    squares = squares.plus(r.minus(mean).pow(2));
    if (r.isNegative()) downside = downside.plus(r.pow(2));
  }
  const std = squares.div(n - 1).sqrt();
  const downDev = downside.div(n).sqrt();
  return {
    sharpe: std.isZero() ? null : mean.div(std).times(SQRT_365),
    sortino: downDev.isZero() ? null : mean.div(downDev).times(SQRT_365),
  };
}

/** The return of each day with trades, or null when a day starts without positive equity. */
function dailyReturns(days: readonly DayProfit[], capital: number): Dec[] | null {
  let equity = dec(capital);
  const returns: Dec[] = [];
  for (const day of days) {
    if (!equity.isPositive() || equity.isZero()) return null;
    returns.push(day.profit.div(equity));
    equity = equity.plus(day.profit);
  }
  return returns;
}
