import { describe, expect, it } from 'vitest';
import { computeMetrics } from './metrics.engine.js';
import type { ClosedTrade, MetricsPeriod } from './trade.js';

const DAY = 86_400_000;
/** Ten São Paulo days, 2026-03-01 to 2026-03-10 (midnight is 03:00 UTC). */
const START = Date.parse('2026-03-01T03:00:00Z');
const PERIOD: MetricsPeriod = { start: START, end: START + 10 * DAY };
const CAPITAL = 1000;

/** Trades closing at 15:00 UTC (noon in São Paulo) on consecutive days from 2026-03-01. */
function daily(...profits: number[]): ClosedTrade[] {
  return profits.map((profitUsd, i) => {
    const closedAt = Date.parse('2026-03-01T15:00:00Z') + i * DAY;
    return { openedAt: closedAt - 60_000, closedAt, profitUsd };
  });
}
const at = (i: number): number => Date.parse('2026-03-01T15:00:00Z') + i * DAY;

/** Sharpe and Sortino the long way, in doubles: returns per day against the running equity, zeros for quiet days. */
function expectedRatios(dayProfits: number[], days: number): { sharpe: number; sortino: number } {
  let equity = CAPITAL;
  const r = Array.from({ length: days }, (_, i) => {
    const p = dayProfits[i] ?? 0;
    const ret = p / equity;
    equity += p;
    return ret;
  });
  const mean = r.reduce((a, b) => a + b, 0) / days;
  const std = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / (days - 1));
  const down = Math.sqrt(r.reduce((a, x) => a + Math.min(x, 0) ** 2, 0) / days);
  return { sharpe: (mean / std) * Math.sqrt(365), sortino: (mean / down) * Math.sqrt(365) };
}

describe('trade metrics engine', () => {
  it('all wins: no loss figures, no drawdown, SQN 2√3', () => {
    const m = computeMetrics(daily(10, 20, 30), CAPITAL, PERIOD);
    expect(m).toMatchObject({
      totalProfitUsd: 60, totalProfitPercent: 6, tradesPerDay: 0.3, winRate: 100,
      avgWinUsd: 20, avgLossUsd: null, profitFactor: null, expectancyUsd: 20, expectancyRatio: null,
      sortino: null, calmar: null, sqn: 3.46410162,
      maxDrawdownUsd: 0, maxDrawdownPercent: 0, maxDrawdownStart: null, maxDrawdownEnd: null, longestDrawdownDays: 0,
      maxConsecutiveWins: 3, maxConsecutiveLosses: 0, bestTradeUsd: 30, worstTradeUsd: 10,
      bestDay: '2026-03-03', bestDayUsd: 30, worstDay: '2026-03-01', worstDayUsd: 10,
    });
    // 6 % in 10 days, compounded over 365 days: 1.06^36.5 − 1.
    expect(m.cagr).toBeCloseTo((1.06 ** 36.5 - 1) * 100, 4);
    expect(m.sharpe).toBeCloseTo(expectedRatios([10, 20, 30], 10).sharpe, 7);
  });

  it('all losses: profit factor 0, expectancy ratio −1, a drawdown from the start that never recovers', () => {
    const m = computeMetrics(daily(-10, -20, -30), CAPITAL, PERIOD);
    const expected = expectedRatios([-10, -20, -30], 10);
    expect(m).toMatchObject({
      totalProfitUsd: -60, totalProfitPercent: -6, winRate: 0, avgWinUsd: null, avgLossUsd: -20,
      profitFactor: 0, expectancyUsd: -20, expectancyRatio: -1,
      maxDrawdownUsd: 60, maxDrawdownPercent: 6, maxDrawdownStart: START, maxDrawdownEnd: at(2), longestDrawdownDays: 10,
      maxConsecutiveWins: 0, maxConsecutiveLosses: 3, bestTradeUsd: -10, worstTradeUsd: -30,
    });
    expect(m.cagr).toBeCloseTo((0.94 ** 36.5 - 1) * 100, 4);
    expect(m.calmar).toBeCloseTo(((0.94 ** 36.5 - 1) * 100) / 6, 6);
    expect(m.sharpe).toBeCloseTo(expected.sharpe, 7);
    expect(m.sortino).toBeCloseTo(expected.sortino, 7);
  });

  it('one trade: no SQN; Sharpe over ten days with one return of 0.5 % is √36.5', () => {
    const m = computeMetrics(daily(5), CAPITAL, PERIOD);
    expect(m).toMatchObject({ sqn: null, sortino: null, expectancyUsd: 5, winRate: 100, maxConsecutiveWins: 1 });
    // mean 0.0005, sample std √(0.0000225 ÷ 9) = 0.0005·√10: mean ÷ std × √365 = √36.5.
    expect(m.sharpe).toBe(6.04152299);
  });

  it('one trade in a one-day period: one daily return has no deviation, so no Sharpe or Sortino', () => {
    const m = computeMetrics(daily(-5), CAPITAL, { start: START, end: START + DAY });
    expect(m).toMatchObject({ sharpe: null, sortino: null, sqn: null, tradesPerDay: 1 });
  });

  it('alternating +10 / −5: profit factor 2, expectancy ratio 0.5, SQN 1/√3, first of equal drawdowns kept', () => {
    const m = computeMetrics(daily(10, -5, 10, -5), CAPITAL, PERIOD);
    expect(m).toMatchObject({
      totalProfitUsd: 10, winRate: 50, avgWinUsd: 10, avgLossUsd: -5, profitFactor: 2,
      expectancyUsd: 2.5, expectancyRatio: 0.5, sqn: 0.57735027,
      maxDrawdownUsd: 5, maxDrawdownPercent: 0.4950495, maxDrawdownStart: at(0), maxDrawdownEnd: at(1),
      // Below the 1015 peak from 2026-03-03 15:00 UTC to the period end (2026-03-11 03:00 UTC).
      longestDrawdownDays: 7.5, maxConsecutiveWins: 1, maxConsecutiveLosses: 1,
    });
    const expected = expectedRatios([10, -5, 10, -5], 10);
    expect(m.sharpe).toBeCloseTo(expected.sharpe, 7);
    expect(m.sortino).toBeCloseTo(expected.sortino, 7);
  });

  it('a drawdown that never recovers runs from its peak to the period end', () => {
    const m = computeMetrics(daily(50, -30, -40), CAPITAL, PERIOD);
    expect(m).toMatchObject({
      maxDrawdownUsd: 70, maxDrawdownPercent: 6.66666667, maxDrawdownStart: at(0), maxDrawdownEnd: at(2),
      longestDrawdownDays: (PERIOD.end - at(0)) / DAY, maxConsecutiveLosses: 2,
    });
  });

  it('a recovered drawdown ends at the first close back at its peak', () => {
    const m = computeMetrics(daily(-20, 5, 15, 1), CAPITAL, PERIOD);
    expect(m).toMatchObject({ maxDrawdownUsd: 20, maxDrawdownPercent: 2, maxDrawdownStart: START, maxDrawdownEnd: at(0) });
    // From the start (03:00 UTC) to the third close (2026-03-03 15:00 UTC): 2.5 days.
    expect(m.longestDrawdownDays).toBe(2.5);
  });

  it('equal profits: zero variance gives a null SQN, never NaN', () => {
    const m = computeMetrics(daily(10, 10, 10, 10), CAPITAL, PERIOD);
    expect(m.sqn).toBeNull();
    expect(m.expectancyUsd).toBe(10);
  });

  it('no trades: zeros and nulls, no NaN anywhere', () => {
    const m = computeMetrics([], CAPITAL, PERIOD);
    expect(m).toEqual({
      totalProfitUsd: 0, totalProfitPercent: 0, cagr: 0, tradesPerDay: 0, winRate: 0, avgWinUsd: null, avgLossUsd: null,
      profitFactor: null, expectancyUsd: null, expectancyRatio: null, sharpe: null, sortino: null, calmar: null, sqn: null,
      maxDrawdownUsd: 0, maxDrawdownPercent: 0, maxDrawdownStart: null, maxDrawdownEnd: null, longestDrawdownDays: 0,
      maxConsecutiveWins: 0, maxConsecutiveLosses: 0, bestTradeUsd: null, worstTradeUsd: null, bestDay: null, bestDayUsd: null, worstDay: null, worstDayUsd: null,
    });
  });

  it('break-even trades are neither wins nor losses and break both streaks', () => {
    const m = computeMetrics(daily(1, 1, 0, 1, -1, 0, -1), CAPITAL, PERIOD);
    expect(m).toMatchObject({ maxConsecutiveWins: 2, maxConsecutiveLosses: 1, winRate: 42.85714286, avgWinUsd: 1, avgLossUsd: -1, profitFactor: 1.5 });
  });

  it('the whole capital lost: no CAGR, and no daily return once the equity is gone', () => {
    expect(computeMetrics(daily(-1000), CAPITAL, PERIOD)).toMatchObject({ cagr: null, calmar: null, maxDrawdownPercent: 100 });
    const m = computeMetrics(daily(-1000, 5), CAPITAL, PERIOD);
    expect(m).toMatchObject({ sharpe: null, sortino: null, maxDrawdownUsd: 1000, maxDrawdownPercent: 100 });
    expect(m.cagr).toBeCloseTo((0.005 ** 36.5 - 1) * 100, 6);
  });

  it('tiny and huge figures are summed exactly in decimal', () => {
    expect(computeMetrics(daily(0.00000001, 0.00000002), CAPITAL, PERIOD)).toMatchObject({ totalProfitUsd: 0.00000003, avgWinUsd: 0.00000002 }); // 1.5e-8 rounds half away from zero, once
    const huge = computeMetrics(daily(0.1, 0.2, 1_000_000_000_000.3), 10_000_000, PERIOD);
    expect(huge.totalProfitUsd).toBe(1_000_000_000_000.6);
    expect(huge.cagr).toBeNull(); // beyond ±1e13: not representable, so null
    expect(huge.totalProfitPercent).toBe(10_000_000.000006);
    // Beyond exact doubles in units of 1e-8, the drawdown and the days are walked in decimal.
    expect(computeMetrics(daily(1_000_000_000_000.3, -500_000_000_000.1), 10_000_000, PERIOD)).toMatchObject({
      maxDrawdownUsd: 500_000_000_000.1, maxDrawdownStart: at(0), maxDrawdownEnd: at(1), sqn: 0.33333333, // (a + b) ÷ |a − b| for two trades
      maxDrawdownPercent: 49.9995, // 500,000,000,000.1 ÷ 1,000,010,000,000.3 × 100 bestDay: '2026-03-01', bestDayUsd: 1_000_000_000_000.3,
    });
  });

  it('a trade closed on a later São Paulo day than the next one is refused (trades come in closing order)', () => {
    expect(() => computeMetrics([...daily(0, 1)].reverse(), CAPITAL, PERIOD)).toThrow(/closing order/);
  });
});
