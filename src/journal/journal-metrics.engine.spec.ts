import { describe, expect, it } from 'vitest';
import { journalMetrics, MIN_EXTRAPOLATED_PERIOD_MS, type MetricsOperation } from './journal-metrics.engine.js';

const DAY_MS = 86_400_000;
/** São Paulo midnight of 1 March 2026 (UTC−3). */
const MARCH_1 = Date.parse('2026-03-01T00:00:00-03:00');
const op = (closedAt: string, netPnl: number, openedMinutesBefore = 20): MetricsOperation => {
  const close = Date.parse(closedAt);
  return { openedAt: close - openedMinutesBefore * 60_000, closedAt: close, netPnl, entryNotional: '100' };
};
const EXTRAPOLATED = { cagr: null, tradesPerDay: null, sharpe: null, sortino: null, calmar: null };

describe('journal metrics: the extrapolated figures need a period of at least 7 days', () => {
  it('one 20-minute trade, read the same afternoon: no cagr, ratio or trades per day; the totals stand', () => {
    // Period: São Paulo midnight of 2 March (03:00 UTC) to now, 18:00 UTC, 15 hours.
    const m = journalMetrics([op('2026-03-02T15:20:00Z', 2)], { from: null, to: Date.parse('2026-03-03T03:00:00Z'), now: Date.parse('2026-03-02T18:00:00Z') });
    expect(m).toMatchObject({ ...EXTRAPOLATED, totalProfitUsd: 2, totalProfitPercent: 2, winRate: 100, bestTradeUsd: 2 });
  });

  // +10 on 2 March, −4 on 3 March, capital 100: equity 110, then 106.
  const trades = [op('2026-03-02T15:00:00Z', 10), op('2026-03-03T15:00:00Z', -4)];

  it('7 days less 1 ms: still null', () => {
    const m = journalMetrics(trades, { from: MARCH_1, to: MARCH_1 + MIN_EXTRAPOLATED_PERIOD_MS - 1, now: MARCH_1 + 30 * DAY_MS, capital: 100 });
    expect(m).toMatchObject({ ...EXTRAPOLATED, totalProfitUsd: 6, maxDrawdownUsd: 4 });
  });

  it('exactly 7 days: every figure as computed before', () => {
    const m = journalMetrics(trades, { from: MARCH_1, to: MARCH_1 + 7 * DAY_MS, now: MARCH_1 + 30 * DAY_MS, capital: 100 });
    expect(MIN_EXTRAPOLATED_PERIOD_MS).toBe(7 * DAY_MS);
    const cagr = (1.06 ** (365 / 7) - 1) * 100;
    // Seven daily returns: 10 ÷ 100, −4 ÷ 110 and five days without trades.
    const r = [0.1, -4 / 110, 0, 0, 0, 0, 0];
    const mean = r.reduce((a, x) => a + x, 0) / 7;
    const std = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / 6);
    const down = Math.sqrt((4 / 110) ** 2 / 7);
    expect(m.tradesPerDay).toBe(0.28571429);
    expect(m.cagr).toBeCloseTo(cagr, 4);
    expect(m.sharpe).toBeCloseTo((mean / std) * Math.sqrt(365), 7);
    expect(m.sortino).toBeCloseTo((mean / down) * Math.sqrt(365), 7);
    expect(m.calmar).toBeCloseTo(cagr / ((4 / 110) * 100), 4);
  });

  it('over 7 days: figures too', () => {
    const m = journalMetrics(trades, { from: MARCH_1, to: MARCH_1 + 10 * DAY_MS, now: MARCH_1 + 30 * DAY_MS, capital: 100 });
    expect(m.tradesPerDay).toBe(0.2);
    expect(m.cagr).toBeCloseTo((1.06 ** 36.5 - 1) * 100, 3);
  });
});
