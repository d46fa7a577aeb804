import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as money from '../common/money/money.js';
import { dec, type Dec } from '../common/money/money.js';
import { type BacktestParams, type BacktestSample, BacktestEngine, runBacktest, spreadOnBasis } from './backtest.engine.js';

// Pass-through spies: the property tests count how often the doubles answered, so a property
// that holds only because the fast path always abstained (and decimal answered) fails.
vi.mock('../common/money/money.js', async (importOriginal) => {
  const actual = await importOriginal<typeof money>();
  return { ...actual, roundFast: vi.fn(actual.roundFast), thresholdFast: vi.fn(actual.thresholdFast) };
});

/** Calls of a spied fast path since `mockClear`, and how many of them answered (not undefined). */
function fastPathTally(fn: (...args: never[]) => unknown): { calls: number; answered: number } {
  const results = vi.mocked(fn).mock.results;
  return { calls: results.length, answered: results.filter((r) => r.type === 'return' && r.value !== undefined).length };
}

// One sample a minute keeps the hand arithmetic readable: minute m is time m × 60,000 ms,
// and a gap longer than 3 minutes ends a window.
const MINUTE = 60_000;
const at = (minute: number): number => minute * MINUTE;

/** Fees 0.1 % + 0.1 % and 1 USD withdrawal unless overridden: costs on 1,000 USD are 3 USD. */
function sample(minute: number, gross: number, extra: Partial<BacktestSample> = {}): BacktestSample {
  return {
    time: at(minute), grossSpreadPercent: gross, buyFeePercent: 0.1, sellFeePercent: 0.1,
    withdrawalFeeUsd: 1, feesEstimated: false, executable: true, ...extra,
  };
}

/** Consecutive minutes from `from`, one gross spread each. */
const series = (from: number, grosses: number[], extra: Partial<BacktestSample> = {}): BacktestSample[] =>
  grosses.map((gross, i) => sample(from + i, gross, extra));

const params = (overrides: Partial<BacktestParams> = {}): BacktestParams => ({
  basis: 'gross', threshold: 0.5, capital: 1000, transferMinutes: 0, intervalMs: MINUTE, ...overrides,
});

describe('backtest engine (rules: backtest)', () => {
  it('completed: enters at the window start, exits at the last sample at or before arrival', () => {
    // Window = minutes 1..4; entry 1, arrival 3; exit gross = minute 3's 0.7.
    // gross 1000 × 0.7 % = 7; costs 1000 × 0.2 % + 1 = 3; net 4 = 0.4 %.
    const r = runBacktest(series(0, [0.2, 0.6, 0.8, 0.7, 0.9, 0.3]), params({ transferMinutes: 2 }));
    expect(r).toMatchObject({ trades: 1, completed: 1, expired: 0, unresolved: 0, skippedBusy: 0, skippedInfeasible: 0, estimatedCosts: 0 });
    expect(r.grossUsd).toBe(7);
    expect(r.netUsd).toBe(4);
    expect(r.netPercent).toBe(0.4);
    expect(r.winRate).toBe(100);
    expect(r.history).toHaveLength(1);
    const [op] = r.history;
    expect(op).toMatchObject({ entry: at(1), arrival: at(3), status: 'completed', entrySpread: 0.6, exitGrossSpread: 0.7, costsEstimated: false });
    expect(op?.grossUsd).toBe(7);
    expect(op?.netUsd).toBe(4);
    expect(op?.netPercent).toBe(0.4);
  });

  it('completed when arrival falls between two window samples: the earlier one is the exit', () => {
    // Samples at minutes 0, 1, 2 (spacing within 3 intervals); transfer 90 s → arrival 1.5.
    // Minute 2 is at or after arrival → completed; exit = minute 1's 0.9 → gross 9, net 6.
    const r = runBacktest(series(0, [0.6, 0.9, 0.8]), params({ transferMinutes: 1.5 }));
    expect(r.history[0]).toMatchObject({ status: 'completed', exitGrossSpread: 0.9 });
    expect(r.netUsd).toBe(6);
  });

  it('expired: the window closes before arrival; closed at spread 0 and the costs are still paid', () => {
    // Window 0..1, transfer 5 → arrival 5; it ends at minute 2 (0.1 < 0.5), and history goes on.
    const r = runBacktest(series(0, [0.6, 0.7, 0.1, 0.1]), params({ transferMinutes: 5 }));
    expect(r).toMatchObject({ trades: 1, completed: 0, expired: 1, unresolved: 0, grossUsd: 0, winRate: 0 });
    expect(r.netUsd).toBe(-3);
    expect(r.netPercent).toBe(-0.3);
    expect(r.history[0]).toMatchObject({ entry: at(0), arrival: at(5), status: 'expired', exitGrossSpread: 0, grossUsd: 0 });
    expect(r.history[0]?.netUsd).toBe(-3);
    expect(r.history[0]?.netPercent).toBe(-0.3);
  });

  it('unresolved: still in transit with the window open at the end of history; excluded from the aggregates', () => {
    // Expired op first (window 0, arrival 2 never reached: minute 1 is below), then window 2..3
    // holds the last sample and its arrival (minute 7) is beyond it.
    const r = runBacktest(series(0, [0.6, 0.1, 0.7, 0.8]), params({ transferMinutes: 2, threshold: 0.5 }));
    expect(r).toMatchObject({ trades: 2, completed: 0, expired: 1, unresolved: 1 });
    expect(r.netUsd).toBe(-3); // the expired one only
    expect(r.netPercent).toBe(-0.3);
    expect(r.winRate).toBe(0); // 0 wins of 1 settled; the unresolved one does not count
    expect(r.history[1]).toEqual({
      entry: at(2), arrival: at(4), status: 'unresolved', entrySpread: 0.7,
      exitGrossSpread: null, netPercent: null, grossUsd: null, netUsd: null, costsEstimated: false,
    });
  });

  it('unresolved alone: aggregates are 0 and the win rate is 0', () => {
    const r = runBacktest(series(0, [0.1, 0.6, 0.7]), params({ transferMinutes: 5 }));
    expect(r).toMatchObject({ trades: 1, unresolved: 1, grossUsd: 0, netUsd: 0, netPercent: 0, winRate: 0 });
  });

  it('skipped busy: a window that passes entirely while the capital is in transit', () => {
    // A = 0..1 enters at 0, arrival 10 → expired at minute 2. B = 3..4 ends in transit → busy.
    // C = 11..12 enters at 11 (free since 10), arrival 21, ends at 13 → expired.
    const history = [...series(0, [0.6, 0.6, 0.1, 0.7, 0.7]), ...series(5, Array<number>(6).fill(0.1)), ...series(11, [0.8, 0.8, 0.1])];
    const r = runBacktest(history, params({ transferMinutes: 10 }));
    expect(r).toMatchObject({ trades: 2, expired: 2, skippedBusy: 1, skippedInfeasible: 0 });
    expect(r.history.map((op) => op.entry)).toEqual([at(0), at(11)]);
  });

  it('skipped infeasible: a window whose samples are all without a viable network', () => {
    const r = runBacktest([sample(0, 0.1), ...series(1, [0.6, 0.9], { executable: false }), sample(3, 0.1)], params());
    expect(r).toMatchObject({ trades: 0, skippedInfeasible: 1, skippedBusy: 0, winRate: 0, netPercent: 0 });
    expect(r.history).toEqual([]);
  });

  it('a window with executable samples only while the capital was in transit is busy, not infeasible', () => {
    // A = minute 0 (arrival 3, expired at 1). B = 2..4: minute 2 executable but in transit,
    // minutes 3..4 (free) not executable → no entry; it had an executable sample → busy.
    const history = [sample(0, 0.6), sample(1, 0.1), sample(2, 0.6), ...series(3, [0.6, 0.6], { executable: false }), sample(5, 0.1)];
    const r = runBacktest(history, params({ transferMinutes: 3 }));
    expect(r).toMatchObject({ trades: 1, expired: 1, skippedBusy: 1, skippedInfeasible: 0 });
  });

  it('enters at the first executable sample of the window', () => {
    const r = runBacktest([sample(0, 0.9, { executable: false }), sample(1, 0.6), sample(2, 0.1)], params());
    expect(r.history[0]).toMatchObject({ entry: at(1), entrySpread: 0.6, exitGrossSpread: 0.6, status: 'completed' });
  });

  it('capital freed mid-window: the next operation enters at the first sample at or after arrival', () => {
    // A = minute 0, arrival 3, expired at 1. B = 2..7: free at 3 → entry 3 (0.7), arrival 6,
    // exit = minute 6's 1.0: gross 10, net 7; total net 7 − 3 = 4 = 0.4 %; 1 win of 2.
    const history = [sample(0, 0.6), sample(1, 0.1), ...series(2, [0.9, 0.7, 0.8, 0.6, 1.0, 0.5]), sample(8, 0.1)];
    const r = runBacktest(history, params({ transferMinutes: 3 }));
    expect(r).toMatchObject({ trades: 2, completed: 1, expired: 1, winRate: 50 });
    expect(r.history[1]).toMatchObject({ entry: at(3), arrival: at(6), entrySpread: 0.7, exitGrossSpread: 1.0, status: 'completed' });
    expect(r.grossUsd).toBe(10);
    expect(r.netUsd).toBe(4);
    expect(r.netPercent).toBe(0.4);
  });

  it('capital freed exactly at a window’s last sample: it enters there', () => {
    // A = 0, arrival 2, expired at 1. B = minute 2 only: free at 2 → enters, transfer 2 → arrival 4,
    // B closed by minute 3 → expired.
    const r = runBacktest([sample(0, 0.6), sample(1, 0.1), sample(2, 0.6), sample(3, 0.1)], params({ transferMinutes: 2 }));
    expect(r).toMatchObject({ trades: 2, expired: 2, skippedBusy: 0 });
  });

  it('estimated costs: counts operations (all outcomes) whose ENTRY sample had default fees', () => {
    // Op 1 entry estimated (completed, transfer 0). Op 2: entry not estimated, later sample is.
    // Op 3: entry estimated, unresolved (transfer 5) → still counted.
    const history = [
      sample(0, 0.6, { feesEstimated: true }), sample(1, 0.1),
      sample(2, 0.6), sample(3, 0.7, { feesEstimated: true }), sample(4, 0.1),
      sample(5, 0.6, { feesEstimated: true }),
    ];
    const r = runBacktest(history, params({ transferMinutes: 0 }));
    expect(r.estimatedCosts).toBe(2);
    expect(r.history.map((op) => op.costsEstimated)).toEqual([true, false, true]);
    const r5 = runBacktest(history, params({ transferMinutes: 5 }));
    expect(r5).toMatchObject({ trades: 2, expired: 1, unresolved: 1, estimatedCosts: 2 });
  });

  it('gross versus net basis decides entry; net = gross − fees − withdrawal USD ÷ capital × 100', () => {
    // Gross 0.5; net = 0.5 − 0.1 − 0.1 − 1/1000 × 100 = 0.2. Threshold 0.3.
    const history = [sample(0, 0.5), sample(1, 0.1)];
    const gross = runBacktest(history, params({ basis: 'gross', threshold: 0.3 }));
    expect(gross.trades).toBe(1);
    expect(gross.history[0]?.entrySpread).toBe(0.5);
    expect(runBacktest(history, params({ basis: 'net', threshold: 0.3 })).trades).toBe(0);
    // With 10,000 USD the withdrawal weighs 0.01 %: net 0.29 ≥ 0.25 → enters; entrySpread is the net one.
    const big = runBacktest(history, params({ basis: 'net', threshold: 0.25, capital: 10_000 }));
    expect(big.trades).toBe(1);
    expect(big.history[0]?.entrySpread).toBe(0.29);
    // Exit gross 0.5 on 10,000 = 50 USD; costs 10,000 × 0.2 % + 1 = 21 → net 29 = 0.29 %.
    expect(big.netUsd).toBe(29);
    expect(big.netPercent).toBe(0.29);
    expect(spreadOnBasis(sample(0, 0.5), 'net', 1000)).toBeCloseTo(0.2, 12);
  });

  it('transfer 0: completes on the entry sample at the entry spread', () => {
    // gross 0.8 → 8 USD, costs 3 → net 5.
    const r = runBacktest([sample(0, 0.8), sample(1, 0.9), sample(2, 0.1)], params({ transferMinutes: 0 }));
    expect(r.history).toHaveLength(1);
    expect(r.history[0]).toMatchObject({ entry: at(0), arrival: at(0), status: 'completed', exitGrossSpread: 0.8 });
    expect(r.netUsd).toBe(5);
  });

  it('a gap longer than 3 intervals splits a window; exactly 3 does not', () => {
    // 0, 1, then 5 (gap 4 min) and 6: two windows, two operations at transfer 0.
    const split = runBacktest([sample(0, 0.6), sample(1, 0.6), sample(5, 0.6), sample(6, 0.6)], params());
    expect(split.trades).toBe(2);
    expect(split.history.map((op) => op.entry)).toEqual([at(0), at(5)]);
    // 0, 1, 4 (gap exactly 3 min): one window, one operation.
    expect(runBacktest([sample(0, 0.6), sample(1, 0.6), sample(4, 0.6)], params()).trades).toBe(1);
  });

  it('a gap ends a window before arrival: expired, even though later samples are past arrival', () => {
    // Window 0..1, transfer 3 → arrival 3; next sample at 6 (gap 5) starts a new window.
    const r = runBacktest([sample(0, 0.6), sample(1, 0.6), sample(6, 0.6), sample(7, 0.1)], params({ transferMinutes: 3 }));
    expect(r.history.map((op) => op.status)).toEqual(['expired', 'expired']);
  });

  it('more than 200 operations: trades counts all, history keeps the last 200 in order', () => {
    // 250 windows of one sample each (above at even minutes, below at odd), transfer 0.
    const history = Array.from({ length: 500 }, (_, i) => sample(i, i % 2 === 0 ? 0.6 : 0.1));
    const r = runBacktest(history, params());
    expect(r.trades).toBe(250);
    expect(r.completed).toBe(250);
    expect(r.history).toHaveLength(200);
    expect(r.history[0]?.entry).toBe(at(100)); // operation 51 (entries at minutes 0, 2, …)
    expect(r.history[199]?.entry).toBe(at(498));
    expect(r.history.every((op, i) => i === 0 || op.entry > (r.history[i - 1]?.entry ?? 0))).toBe(true);
    expect(r.netUsd).toBe(750); // each: 6 − 3, × 250
  });

  it('tiny and negative spreads: negative never forms a window at threshold 0, exactly 0 does, tiny loses to costs', () => {
    const history = [sample(0, -0.4), sample(1, 0), sample(2, -0.1), sample(3, 0.0001), sample(4, -1)];
    const r = runBacktest(history, params({ threshold: 0 }));
    expect(r.trades).toBe(2);
    expect(r.history.map((op) => op.entrySpread)).toEqual([0, 0.0001]);
    // 0 → gross 0, net −3; 0.0001 % of 1000 = 0.001 → net −2.999. No winner.
    expect(r.netUsd).toBe(-5.999);
    expect(r.winRate).toBe(0);
    // Net basis at threshold 0: every net spread here is negative → nothing.
    expect(runBacktest(history, params({ basis: 'net', threshold: 0 })).trades).toBe(0);
  });

  it('win rate: share of settled operations with net > 0', () => {
    // Transfer 0: 0.8 → net +5; 0.2 → net −1; 0.3 → net 0 (not a win).
    const history = [sample(0, 0.8), sample(1, -1), sample(2, 0.2), sample(3, -1), sample(4, 0.3)];
    const r = runBacktest(history, params({ threshold: 0.1 }));
    expect(r.completed).toBe(3);
    expect(r.winRate).toBe(33.33333333); // 1 ÷ 3 × 100, rounded once
  });

  it('no samples: an empty result', () => {
    expect(runBacktest([], params())).toEqual({
      trades: 0, completed: 0, expired: 0, unresolved: 0, skippedBusy: 0, skippedInfeasible: 0,
      estimatedCosts: 0, grossUsd: 0, netUsd: 0, netPercent: 0, winRate: 0, history: [],
    });
  });

  it('streaming: pushing page by page gives the same result, and out-of-order samples are refused', () => {
    const history = Array.from({ length: 60 }, (_, i) => sample(i, [0.6, 0.9, 0.1][i % 3] ?? 0));
    const whole = runBacktest(history, params({ transferMinutes: 1 }));
    const engine = new BacktestEngine(params({ transferMinutes: 1 }));
    for (let i = 0; i < history.length; i += 7) history.slice(i, i + 7).forEach((s) => engine.push(s));
    expect(engine.finish()).toEqual(whole);
    const bad = new BacktestEngine(params());
    bad.push(sample(5, 0.6));
    expect(() => bad.push(sample(5, 0.6))).toThrow(/ascending/);
  });

  describe('money policy: decimal figures rounded once, profitable only above 0 as shown', () => {
    it('entrySpread is 0.3, not 0.30000000000000004 (net 0.5 − 0.1 − 0.1 − 0 in doubles)', () => {
      const r = runBacktest([sample(0, 0.5, { withdrawalFeeUsd: 0 }), sample(1, 0.1)], params({ basis: 'net', threshold: 0.25 }));
      expect(0.5 - 0.1 - 0.1).toBe(0.30000000000000004);
      expect(r.history[0]?.entrySpread).toBe(0.3);
      // exit gross 0.5 on 1,000 = 5; costs 1,000 × 0.2 % + 0 = 2; net 3 = 0.3 %
      expect(r.history[0]).toMatchObject({ exitGrossSpread: 0.5, grossUsd: 5, netUsd: 3, netPercent: 0.3 });
    });

    it('a sample exactly at the threshold is in the window (net 0.3 − 0.1 − 0.1 = 0.1; doubles 0.09999999999999998)', () => {
      const history = [sample(0, 0.3, { withdrawalFeeUsd: 0 }), sample(1, 0)];
      expect(0.3 - 0.1 - 0.1).toBeLessThan(0.1);
      const r = runBacktest(history, params({ basis: 'net', threshold: 0.1 }));
      expect(r.trades).toBe(1);
      expect(r.history[0]?.entrySpread).toBe(0.1);
      // 0.099999995 rounds (half away from zero) to 0.1: at the threshold as shown, so in; 0.099999994 to 0.09999999: out
      expect(runBacktest([sample(0, 0.299999995, { withdrawalFeeUsd: 0 }), sample(1, 0)], params({ basis: 'net', threshold: 0.1 })).trades).toBe(1);
      expect(runBacktest([sample(0, 0.299999994, { withdrawalFeeUsd: 0 }), sample(1, 0)], params({ basis: 'net', threshold: 0.1 })).trades).toBe(0);
    });

    it('break-even: netUsd exactly 0 is not a win (costs 3 against a 0.3 % exit on 1,000)', () => {
      // gross 1000 × 0.3 % = 3; costs 1000 × (0.1 + 0.1) % + 1 = 3; net 0, netPercent 0
      const r = runBacktest([sample(0, 0.3), sample(1, 0)], params({ threshold: 0.2 }));
      expect(r.history[0]).toMatchObject({ grossUsd: 3, netUsd: 0, netPercent: 0 });
      expect([r.netUsd, r.netPercent, r.winRate]).toEqual([0, 0, 0]);
    });

    it('tiny and negative: a net of 0.000000004 USD shows 0 (no win); −0.000000005 shows −0.00000001', () => {
      // gross 1000 × 0.3 % = 3; costs 2 + 0.999999996 = 2.999999996; net 0.000000004 → 0
      const tiny = runBacktest([sample(0, 0.3, { withdrawalFeeUsd: 0.999999996 }), sample(1, 0)], params({ threshold: 0.2 }));
      expect(tiny.history[0]?.netUsd).toBe(0);
      expect(tiny.winRate).toBe(0);
      // costs 2 + 1.000000005 = 3.000000005; net −0.000000005 → −0.00000001; netPercent −0.0000000005 → −0 → 0
      const loss = runBacktest([sample(0, 0.3, { withdrawalFeeUsd: 1.000000005 }), sample(1, 0)], params({ threshold: 0.2 }));
      expect(loss.history[0]).toMatchObject({ netUsd: -0.00000001, netPercent: 0 });
      expect(loss.netUsd).toBe(-0.00000001);
      // aggregate netPercent = Σ netUsd as shown (−0.00000001) ÷ 1000 × 100 = −0.000000001 → 0
      expect(Object.is(loss.netPercent, 0)).toBe(true);
    });

    it('zero: an expired operation closes at spread 0 and pays its costs', () => {
      // window minutes 0..1, transfer 5 min: expired; gross 0; costs 3; net −3 = −0.3 %
      const r = runBacktest([sample(0, 0.6), sample(1, 0.6), sample(2, 0.1), sample(3, 0.1)], params({ transferMinutes: 5 }));
      expect(r.history[0]).toMatchObject({ status: 'expired', exitGrossSpread: 0, grossUsd: 0, netUsd: -3, netPercent: -0.3 });
    });

    it('aggregates sum the operations as shown: three nets of 0.1 + 0.2 + … add up exactly', () => {
      // three operations, each gross 1000 × 0.3 % = 3, costs 2.9 (2 + 0.9) → net 0.1, netPercent 0.01
      const ops = [0, 10, 20].flatMap((m) => [sample(m, 0.3, { withdrawalFeeUsd: 0.9 }), sample(m + 1, 0)]);
      const r = runBacktest(ops, params({ threshold: 0.2 }));
      expect(r.history.map((o) => o.netUsd)).toEqual([0.1, 0.1, 0.1]);
      expect([r.grossUsd, r.netUsd, r.netPercent, r.winRate]).toEqual([9, 0.3, 0.03, 100]); // doubles: 0.30000000000000004
    });

    it('huge: capital 10,000,000 at a 100,000 % exit is 1e10 USD; a withdrawal fee of 2e13 USD is out of range', () => {
      // gross 1e7 × 100,000 % = 1e10; costs 1e7 × 0.2 % + 1 = 20,001; net 9,999,979,999
      const r = runBacktest([sample(0, 100_000), sample(1, 0)], params({ threshold: 0.2, capital: 10_000_000 }));
      expect(r.history[0]).toMatchObject({ grossUsd: 1e10, netUsd: 9_999_979_999, netPercent: 99_999.79999 });
      // gross 1000 × 1 % = 10; costs 2 + 2e13; net −19,999,999,999,992: beyond 1e13
      expect(() => runBacktest([sample(0, 1, { withdrawalFeeUsd: 2e13 }), sample(1, 0)], params({ threshold: 0.2 }))).toThrow(
        'netUsd is out of range (figures are limited to ±1e13)',
      );
    });
  });

  it('every operation figure is exactly the decimal formula, rounded once (property)', () => {
    const pct = (scale: number) => fc.integer({ min: 0, max: 2_000_000 }).map((n) => n / scale);
    vi.mocked(money.roundFast).mockClear();
    vi.mocked(money.thresholdFast).mockClear();
    fc.assert(
      fc.property(pct(1_000_000), pct(10_000_000), pct(10_000_000), pct(1000), fc.integer({ min: 10, max: 10_000_000 }), (gross, bf, sf, w, capital) => {
        const r = runBacktest([sample(0, gross, { buyFeePercent: bf, sellFeePercent: sf, withdrawalFeeUsd: w }), sample(1, -1)], params({ threshold: 0, capital }));
        const op = r.history[0];
        const costs = dec(capital).times(dec(bf).plus(sf)).div(100).plus(w);
        const grossUsd = dec(capital).times(gross).div(100);
        const round = (d: Dec): number => {
          const v = d.toDecimalPlaces(8).toNumber();
          return v === 0 ? 0 : v;
        };
        expect(op).toMatchObject({
          entrySpread: round(dec(gross)),
          exitGrossSpread: round(dec(gross)),
          grossUsd: round(grossUsd),
          netUsd: round(grossUsd.minus(costs)),
          netPercent: round(grossUsd.minus(costs).div(capital).times(100)),
        });
      }),
      { seed: 18, numRuns: 500 },
    );
    const round = fastPathTally(money.roundFast);
    const threshold = fastPathTally(money.thresholdFast);
    // With seed 18: roundFast answers 1,618 of 2,500 calls and thresholdFast 997 of 1,000. The
    // property must have exercised the fast paths, not only the decimal fallback.
    expect(round.answered).toBeGreaterThanOrEqual(1_000);
    expect(threshold.answered).toBeGreaterThanOrEqual(900);
  });
});
