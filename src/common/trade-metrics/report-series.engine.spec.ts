import { describe, expect, it } from 'vitest';
import { breakdownOf, equityCurveOf } from './report-series.engine.js';
import type { ClosedTrade } from './trade.js';

const trade = (iso: string, profitUsd: number): ClosedTrade => ({ openedAt: Date.parse(iso) - 1000, closedAt: Date.parse(iso), profitUsd });

describe('breakdown by São Paulo day, week and month', () => {
  it('splits at São Paulo midnight (03:00 UTC since 2019), not UTC midnight', () => {
    const trades = [trade('2026-03-01T23:00:00Z', 1), trade('2026-03-02T02:59:59.999Z', 2), trade('2026-03-02T03:00:00Z', -4)];
    expect(breakdownOf(trades, 'day')).toEqual([
      { period: '2026-03-01', trades: 2, netUsd: 3, winRate: 100 },
      { period: '2026-03-02', trades: 1, netUsd: -4, winRate: 0 },
    ]);
  });

  it('2018-11-04, the night DST began: São Paulo midnight at 03:00 UTC, and weeks turn at 02:00 UTC (−02:00) after it', () => {
    const trades = [
      trade('2018-11-04T02:59:59Z', 1), // Saturday 23:59:59 −03:00
      trade('2018-11-04T03:00:00Z', 2), // Sunday 01:00 −02:00 (00:00 did not exist)
      trade('2018-11-05T01:59:59Z', 4), // Sunday 23:59:59 −02:00
      trade('2018-11-05T02:00:00Z', 8), // Monday 00:00 −02:00: a new week
    ];
    expect(breakdownOf(trades, 'day').map((r) => [r.period, r.netUsd])).toEqual([
      ['2018-11-03', 1], ['2018-11-04', 6], ['2018-11-05', 8],
    ]);
    expect(breakdownOf(trades, 'week').map((r) => [r.period, r.netUsd, r.trades])).toEqual([['2018-10-29', 7, 3], ['2018-11-05', 8, 1]]);
  });

  it('2019-02-16, the night DST ended, lasted 25 hours: 02:30 UTC on the 17th is still the 16th', () => {
    const trades = [trade('2019-02-16T02:00:00Z', 1), trade('2019-02-17T02:30:00Z', 2), trade('2019-02-17T03:00:00Z', 4)];
    expect(breakdownOf(trades, 'day').map((r) => [r.period, r.netUsd])).toEqual([['2019-02-16', 3], ['2019-02-17', 4]]);
  });

  it('months turn at São Paulo midnight, in DST years and after', () => {
    const trades = [
      trade('2018-11-01T02:59:59Z', 1), trade('2018-11-01T03:00:00Z', 2),
      trade('2019-03-01T02:59:59Z', 4), trade('2019-03-01T03:00:00Z', 8),
      trade('2026-04-01T02:59:59Z', 16), trade('2026-04-01T03:00:00Z', -32),
    ];
    expect(breakdownOf(trades, 'month').map((r) => [r.period, r.netUsd])).toEqual([
      ['2018-10', 1], ['2018-11', 2], ['2019-02', 4], ['2019-03', 8], ['2026-03', 16], ['2026-04', -32],
    ]);
  });

  it('win rate per period in percent, net in decimal', () => {
    const trades = [trade('2026-03-02T12:00:00Z', 0.1), trade('2026-03-03T12:00:00Z', 0.2), trade('2026-03-04T12:00:00Z', -0.05)];
    expect(breakdownOf(trades, 'week')).toEqual([{ period: '2026-03-02', trades: 3, netUsd: 0.25, winRate: 66.66666667 }]);
  });
});

describe('equity curve', () => {
  const period = { start: 0, end: 1000 };

  it('starts at the capital and follows every close while there are few', () => {
    const trades = [
      { openedAt: 0, closedAt: 100, profitUsd: 0.1 },
      { openedAt: 100, closedAt: 200, profitUsd: 0.2 },
    ];
    expect(equityCurveOf(trades, 1000, period)).toEqual([
      { time: 0, equityUsd: 1000 }, { time: 100, equityUsd: 1000.1 }, { time: 200, equityUsd: 1000.3 },
    ]);
  });

  it('downsamples by time to at most maxPoints, keeping the last point of each span and the final equity', () => {
    const trades = Array.from({ length: 999 }, (_, i) => ({ openedAt: i, closedAt: i + 1, profitUsd: 1 }));
    const curve = equityCurveOf(trades, 1000, period, 11);
    expect(curve).toHaveLength(11);
    expect(curve[0]).toEqual({ time: 0, equityUsd: 1000 });
    // Spans of 100 ms: the last close in [0, 100) is at 99, and so on; the last span runs to the end.
    expect(curve.slice(1, 4)).toEqual([{ time: 99, equityUsd: 1099 }, { time: 199, equityUsd: 1199 }, { time: 299, equityUsd: 1299 }]);
    expect(curve[10]).toEqual({ time: 999, equityUsd: 1999 });
  });

  it('answers at most 500 points by default', () => {
    const trades = Array.from({ length: 5000 }, (_, i) => ({ openedAt: i, closedAt: i + 1, profitUsd: 1 }));
    expect(equityCurveOf(trades, 1000, { start: 0, end: 5001 }).length).toBeLessThanOrEqual(500);
  });
});
