import { dec, MAX_FIGURE, roundAmount, roundPercent, type Dec } from '../money/money.js';
import { dailyRatios, profitsByDay, type DayProfit } from './daily-returns.engine.js';
import { drawdownOf, profitUnits, UNIT } from './drawdown.engine.js';
import type { ClosedTrade, MetricsPeriod } from './trade.js';

/**
 * A backtest-style report of closed trades against a starting capital, in decimal, each figure
 * rounded once on the way out (amounts and ratios alike to 8 decimals). A figure that has no
 * value for the trades given (no losses for a profit factor, one trade for a deviation) is null.
 * The README ("Trade metrics") states every formula.
 */

export interface TradeMetrics {
  totalProfitUsd: number;
  totalProfitPercent: number;
  cagr: number | null;
  /** Null only where a caller holds its period too short to extrapolate (journal summaries). */
  tradesPerDay: number | null;
  winRate: number;
  avgWinUsd: number | null;
  avgLossUsd: number | null;
  profitFactor: number | null;
  expectancyUsd: number | null;
  expectancyRatio: number | null;
  sharpe: number | null;
  sortino: number | null;
  calmar: number | null;
  sqn: number | null;
  maxDrawdownUsd: number;
  maxDrawdownPercent: number;
  maxDrawdownStart: number | null;
  maxDrawdownEnd: number | null;
  longestDrawdownDays: number;
  maxConsecutiveWins: number;
  maxConsecutiveLosses: number;
  bestTradeUsd: number | null;
  worstTradeUsd: number | null;
  /** The São Paulo day with the highest Σ profit, and that sum. */
  bestDay: string | null;
  bestDayUsd: number | null;
  worstDay: string | null;
  worstDayUsd: number | null;
}

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;

/** What one walk over the trades gathers. A win is a profit above 0, a loss one below 0. */
interface TradeTally {
  total: Dec;
  wins: number;
  winSum: Dec;
  losses: number;
  lossSum: Dec;
  maxWins: number;
  maxLosses: number;
  best: number | null;
  worst: number | null;
}

function tallyTrades(trades: readonly ClosedTrade[], units: readonly number[] | null): TradeTally {
  const t: TradeTally = { total: dec(0), wins: 0, winSum: dec(0), losses: 0, lossSum: dec(0), maxWins: 0, maxLosses: 0, best: null, worst: null };
  // Sums in exact 1e-8 units when doubles hold them (100,000 journal operations), else in decimal.
  const sums = { total: 0, win: 0, loss: 0 };
  let [winRun, lossRun, previous] = [0, 0, Number.NEGATIVE_INFINITY];
  for (let i = 0; i < trades.length; i++) {
    const { profitUsd: p, closedAt } = trades[i];
    if (closedAt < previous) throw new Error('trade metrics: trades must come in closing order');
    previous = closedAt;
    const u = units?.[i];
    if (u === undefined) t.total = t.total.plus(p);
    else sums.total += u;
    winRun = p > 0 ? winRun + 1 : 0;
    lossRun = p < 0 ? lossRun + 1 : 0;
    if (p > 0) [t.wins, sums.win, t.winSum] = [t.wins + 1, sums.win + (u ?? 0), u === undefined ? t.winSum.plus(p) : t.winSum];
    if (p < 0) [t.losses, sums.loss, t.lossSum] = [t.losses + 1, sums.loss + (u ?? 0), u === undefined ? t.lossSum.plus(p) : t.lossSum];
    [t.maxWins, t.maxLosses] = [Math.max(t.maxWins, winRun), Math.max(t.maxLosses, lossRun)];
    t.best = t.best === null ? p : Math.max(t.best, p);
    t.worst = t.worst === null ? p : Math.min(t.worst, p);
  }
  if (units) [t.total, t.winSum, t.lossSum] = [fromUnits(sums.total), fromUnits(sums.win), fromUnits(sums.loss)];
  return t;
}

const fromUnits = (u: number | bigint): Dec => dec(0).plus(u.toString()).div(UNIT);

/** Trades in closing order; `capital` above 0; the period holds every trade's close. */
export function computeMetrics(trades: readonly ClosedTrade[], capital: number, period: MetricsPeriod): TradeMetrics {
  const units = profitUnits(trades);
  const t = tallyTrades(trades, units);
  const n = trades.length;
  const days = profitsByDay(trades);
  const ratios = dailyRatios(days, capital, period);
  const drawdown = drawdownOf(trades, capital, period);
  const cagr = cagrOf(t.total, capital, period);
  const avgWin = t.wins === 0 ? null : t.winSum.div(t.wins);
  const avgLoss = t.losses === 0 ? null : t.lossSum.div(t.losses);
  return {
    totalProfitUsd: roundAmount(t.total),
    totalProfitPercent: roundPercent(t.total.div(capital).times(100)),
    cagr: orNull(cagr),
    tradesPerDay: roundPercent(dec(n).times(DAY_MS).div(period.end - period.start)),
    winRate: n === 0 ? 0 : roundPercent(dec(t.wins).div(n).times(100)),
    avgWinUsd: avgWin && roundAmount(avgWin),
    avgLossUsd: avgLoss && roundAmount(avgLoss),
    profitFactor: avgLoss && roundPercent(t.winSum.div(t.lossSum.abs())),
    expectancyUsd: n === 0 ? null : roundAmount(t.total.div(n)),
    expectancyRatio: avgLoss && roundPercent(dec(1).plus((avgWin ?? dec(0)).div(avgLoss.abs())).times(t.wins).div(n).minus(1)),
    sharpe: orNull(ratios.sharpe),
    sortino: orNull(ratios.sortino),
    calmar: cagr && !drawdown.percent.isZero() ? orNull(cagr.div(drawdown.percent)) : null,
    sqn: orNull(units ? sqnOfUnits(units) : sqnOf(trades, t.total)),
    maxDrawdownUsd: roundAmount(drawdown.maxUsd),
    maxDrawdownPercent: roundPercent(drawdown.percent),
    maxDrawdownStart: drawdown.start,
    maxDrawdownEnd: drawdown.end,
    longestDrawdownDays: roundPercent(dec(drawdown.longestMs).div(DAY_MS)),
    maxConsecutiveWins: t.maxWins,
    maxConsecutiveLosses: t.maxLosses,
    bestTradeUsd: t.best,
    worstTradeUsd: t.worst,
    ...bestAndWorstDay(days),
  };
}

/**
 * Compound annual growth, percent: ((capital + profit) ÷ capital)^(365 days ÷ period) − 1.
 * Null when the final equity is 0 or below.
 */
function cagrOf(total: Dec, capital: number, period: MetricsPeriod): Dec | null {
  const ratio = total.plus(capital).div(capital);
  if (!ratio.isPositive() || ratio.isZero()) return null;
  const years = dec(period.end - period.start).div(YEAR_MS);
  return ratio.pow(dec(1).div(years)).minus(1).times(100);
}

/** System quality number: √N × mean ÷ sample standard deviation of the trades' profits. */
function sqnOf(trades: readonly ClosedTrade[], total: Dec): Dec | null {
  const n = trades.length;
  if (n < 2) return null;
  const mean = total.div(n);
  const squares = trades.reduce((sum, trade) => sum.plus(dec(trade.profitUsd).minus(mean).pow(2)), dec(0));
  const std = squares.div(n - 1).sqrt();
  return std.isZero() ? null : dec(n).sqrt().times(mean).div(std);
}

/** The same from exact units: sample variance × N(N−1) = N·Σu² − (Σu)², in BigInt. */
function sqnOfUnits(units: readonly number[]): Dec | null {
  const n = units.length;
  if (n < 2) return null;
  let sum = 0n;
  let squares = 0n;
  for (const u of units) {
    const b = BigInt(u);
    sum += b;
    squares += b * b;
  }
  const scaledVariance = BigInt(n) * squares - sum * sum;
  if (scaledVariance === 0n) return null;
  const std = dec(0).plus(scaledVariance.toString()).div(n * (n - 1)).sqrt();
  return dec(n).sqrt().times(dec(0).plus(sum.toString()).div(n)).div(std);
}

function bestAndWorstDay(days: readonly DayProfit[]): Pick<TradeMetrics, 'bestDay' | 'bestDayUsd' | 'worstDay' | 'worstDayUsd'> {
  let best: DayProfit | null = null;
  let worst: DayProfit | null = null;
  for (const day of days) {
    if (!best || day.profit.gt(best.profit)) best = day;
    if (!worst || day.profit.lt(worst.profit)) worst = day;
  }
  return {
    bestDay: best?.date ?? null, bestDayUsd: best ? roundAmount(best.profit) : null,
    worstDay: worst?.date ?? null, worstDayUsd: worst ? roundAmount(worst.profit) : null,
  };
}

/** A ratio as shown, or null when it has no value or lies beyond the figures' range (±1e13). */
function orNull(value: Dec | null): number | null {
  if (value === null || !value.isFinite() || value.abs().gte(MAX_FIGURE)) return null;
  return roundPercent(value);
}

/** The two metrics a parameter sweep ranks by, exactly as computeMetrics gives them. */
export function sweepFigures(trades: readonly ClosedTrade[], capital: number, period: MetricsPeriod): Pick<TradeMetrics, 'maxDrawdownUsd' | 'sharpe'> {
  return {
    maxDrawdownUsd: roundAmount(drawdownOf(trades, capital, period).maxUsd),
    sharpe: orNull(dailyRatios(profitsByDay(trades), capital, period).sharpe),
  };
}
