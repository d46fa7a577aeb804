import { describe, expect, it } from 'vitest';
import {
  intervalsFromTimes, lastIntervalChange, settledApr, settledStats, stability7d, type Settlement,
} from './funding-history.engine.js';

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 26, 16);

/** Settlements at the given hours before NOW, with their rates; intervals derived from the times. */
function series(points: readonly [hoursAgo: number, rate: number][], fallback = 8): Settlement[] {
  const sorted = [...points].sort((a, b) => b[0] - a[0]);
  const times = sorted.map(([ago]) => NOW - ago * H);
  const intervals = intervalsFromTimes(times, fallback);
  return sorted.map(([, rate], i) => ({ settledAt: times[i] ?? 0, rate, intervalHours: intervals[i] ?? fallback }));
}

// 8 h payments of 0.01 % until 24 h ago, then the venue moves the contract to 4 h at 0.02 %.
const CHANGE = series([[40, 0.0001], [32, 0.0001], [24, 0.0001], [20, 0.0002], [16, 0.0002], [12, 0.0002], [8, 0.0002], [4, 0.0002], [0, 0.0002]]);

describe('intervals from settlement times', () => {
  it('8 h then 4 h: each payment is read on the interval it paid for', () => {
    expect(CHANGE.map((s) => s.intervalHours)).toEqual([8, 8, 8, 4, 4, 4, 4, 4, 4]);
  });
  it('a gap (16 h between two 8 h payments) keeps the previous interval', () => {
    expect(intervalsFromTimes([0, 8 * H, 24 * H, 32 * H], 1)).toEqual([8, 8, 8, 8]);
  });
  it('a single settlement takes the interval the venue states now', () => {
    expect(intervalsFromTimes([0], 4)).toEqual([4]);
  });
  it('the interval change is dated at the first payment on the new interval', () => {
    expect(lastIntervalChange(CHANGE)).toBe(NOW - 20 * H);
    expect(lastIntervalChange(series([[16, 0.0001], [8, 0.0001], [0, 0.0001]]))).toBeNull();
  });
});

describe('settled APR: interval-weighted mean of annualised payments, percent, rounded once', () => {
  it('across the change: 1 day holds only the 4 h payments, 0.0012 over 24 h → 43.8 %', () => {
    expect(settledApr(CHANGE, NOW, 1)).toBe(43.8);
  });
  it('across the change: 3 days, 0.0015 paid over 48 h → 27.375 % (not the count-weighted 32.85)', () => {
    expect(settledApr(CHANGE, NOW, 3)).toBe(27.375);
  });
  it('the window is (now − days, now]: a payment exactly one day old is out', () => {
    const s = series([[24, 0.01], [16, 0.0001], [8, 0.0001], [0, 0.0001]]);
    expect(settledApr(s, NOW, 1)).toBe(10.95);
  });
  it('a gap leaves the missing 8 h out instead of counting it as 0: 6 × 0.01 % over 48 h → 10.95 %', () => {
    const gap = series([[48, 0.0001], [40, 0.0001], [24, 0.0001], [16, 0.0001], [8, 0.0001], [0, 0.0001]]);
    expect(settledApr(gap, NOW, 3)).toBe(10.95);
  });
  it('negative 1 h payments of −0.005 % for a day → −43.8 %', () => {
    const neg = series(Array.from({ length: 24 }, (_, i) => [i, -0.00005] as [number, number]), 1);
    expect(settledApr(neg, NOW, 1)).toBe(-43.8);
  });
  it('break-even: +0.01 % then −0.01 % → 0', () => {
    expect(settledApr(series([[8, 0.0001], [0, -0.0001]]), NOW, 1)).toBe(0);
  });
  it('tiny and huge rates: 1e-8 per 8 h → 0.001095 %; 1e-12 rounds once to 8 decimals; 3 % per hour → 26,280 %', () => {
    expect(settledApr(series([[0, 0.00000001]]), NOW, 1)).toBe(0.001095);
    expect(settledApr(series([[0, 1e-12]]), NOW, 1)).toBe(0.00000011);
    expect(settledApr(series([[1, 0.03], [0, 0.03]], 1), NOW, 1)).toBe(26_280);
  });
  it('no settlement in the window → null', () => {
    expect(settledApr(series([[30, 0.0001]]), NOW, 1)).toBeNull();
    expect(settledApr([], NOW, 30)).toBeNull();
  });
});

describe('stability7d: coefficient of variation of the annualised 7-day payments', () => {
  it('across the change: annualised 10.95 % ×3 and 43.8 % ×6 → √2 ÷ 3', () => {
    expect(stability7d(CHANGE, NOW)).toBe(0.47140452);
  });
  it('the same payment on a new interval is not instability: 0.01 %/8 h then 0.005 %/4 h → 0', () => {
    expect(stability7d(series([[24, 0.0001], [16, 0.0001], [12, 0.00005], [8, 0.00005], [4, 0.00005]]), NOW)).toBe(0);
  });
  it('mixed signs −, +, − → 2√2', () => {
    expect(stability7d(series([[16, -0.0001], [8, 0.0001], [0, -0.0001]]), NOW)).toBe(2.82842712);
  });
  it('fewer than 3 settlements → null', () => {
    expect(stability7d(series([[8, 0.0001], [0, 0.0002]]), NOW)).toBeNull();
  });
  it('a mean of exactly 0 has no scale → null', () => {
    expect(stability7d(series([[16, 0.0001], [8, -0.0001], [0, 0]]), NOW)).toBeNull();
  });
});

describe('settledStats', () => {
  it('every member at once; settledRate is the last payment; future times are ignored', () => {
    const future = { settledAt: NOW + 4 * H, rate: 0.5, intervalHours: 4 };
    expect(settledStats([...CHANGE, future], NOW)).toEqual({
      apr1d: 43.8, apr3d: 27.375, apr7d: 27.375, apr30d: 27.375, stability7d: 0.47140452, settledRate: 0.0002,
    });
  });
  it('no settlements: every member null', () => {
    expect(settledStats([], NOW)).toEqual({ apr1d: null, apr3d: null, apr7d: null, apr30d: null, stability7d: null, settledRate: null });
  });
});
