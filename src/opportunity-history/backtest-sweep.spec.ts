import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import { BacktestEngine, runBacktest, type BacktestSample } from './backtest.engine.js';
import { BacktestSweep, rankSweep, type SweepRow } from './backtest-sweep.engine.js';
import type { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import { OpportunityHistoryService } from './opportunity-history.service.js';
import type { RouteEpisodeRepository } from './route-episode.repository.js';

const STEP = 10_000;
const sample = (i: number, gross: number): BacktestSample => ({
  time: 1_700_000_000_000 + i * STEP, grossSpreadPercent: gross, buyFeePercent: 0.1, sellFeePercent: 0.1,
  withdrawalFeeUsd: 1, feesEstimated: false, executable: i % 13 !== 0,
});
/** Waves of spread: windows of many lengths for every threshold. */
const waves = (n: number): BacktestSample[] => Array.from({ length: n }, (_, i) => sample(i, 0.35 + 0.45 * Math.sin(i / 40) + 0.1 * Math.sin(i / 7)));

describe('backtest sweep', () => {
  it('each combination ends where the backtest with its parameters ends', () => {
    const samples = waves(3000);
    const params = { basis: 'net' as const, capital: 1000, intervalMs: STEP, thresholds: [0.1, 0.25, 0.4], transferMinutes: [0, 3, 30] };
    const sweep = new BacktestSweep(params);
    for (const s of samples) sweep.push(s);
    sweep.finish();
    for (const c of sweep.combinations()) {
      const alone = runBacktest(samples, { ...params, threshold: c.threshold, transferMinutes: c.transferMinutes });
      expect(c.engine.finish()).toEqual(alone);
    }
  });

  it('every row equals its backtest, gaps included', () => {
    // Gaps of 40 s (over 3 intervals) every 37 samples end windows; below-threshold runs are skipped by the sweep.
    let time = 0;
    const samples = waves(4000).map((s, i) => ({ ...s, time: 1_700_000_000_000 + (time += i % 37 === 0 ? 4 * STEP : STEP) }));
    const params = { basis: 'gross' as const, capital: 1000, intervalMs: STEP, thresholds: [0.05, 0.3, 0.6, 0.85], transferMinutes: [0, 1, 10] };
    const sweep = new BacktestSweep(params);
    for (const s of samples) sweep.push(s);
    sweep.finish();
    for (const c of sweep.combinations()) {
      const alone = runBacktest(samples, { ...params, threshold: c.threshold, transferMinutes: c.transferMinutes });
      expect(c.engine.finish()).toEqual(alone);
      expect(alone.trades).toBeGreaterThan(0);
    }
  });

  it('any walk (random spreads, executability, gaps, transfer times): the result and trades of every combination equal its backtest', () => {
    const sampleArb = fc.record({
      step: fc.constantFrom(STEP, STEP, STEP, STEP * 2, STEP * 4),
      gross: fc.integer({ min: -20, max: 120 }).map((g) => g / 100),
      executable: fc.integer({ min: 0, max: 3 }).map((n) => n !== 0),
    });
    fc.assert(
      fc.property(fc.array(sampleArb, { minLength: 1, maxLength: 400 }), fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }), (steps, transfers) => {
        let time = 1_700_000_000_000;
        const samples = steps.map((s) => ({ ...sample(0, s.gross), time: (time += s.step), executable: s.executable }));
        const params = { basis: 'gross' as const, capital: 1000, intervalMs: STEP, thresholds: [0, 0.3, 0.7], transferMinutes: transfers.map((m) => m / 4) };
        const sweep = new BacktestSweep(params);
        for (const s of samples) sweep.push(s);
        sweep.finish();
        for (const c of sweep.combinations()) {
          const engine = new BacktestEngine({ ...params, threshold: c.threshold, transferMinutes: c.transferMinutes });
          for (const s of samples) engine.push(s);
          expect(c.engine.finish()).toEqual(engine.finish());
          expect(c.engine.closedTrades()).toEqual(engine.closedTrades());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ranks with nulls last for sharpe and the least drawdown first', () => {
    const row = (threshold: number, sharpe: number | null, maxDrawdownUsd: number): SweepRow =>
      ({ threshold, transferMinutes: 0, trades: 1, netUsd: 0, maxDrawdownUsd, sharpe });
    const rows = [row(1, null, 3), row(2, 1.5, 1), row(3, 2, 2), row(4, null, 1)];
    expect(rankSweep(rows, 'sharpe').map((r) => r.threshold)).toEqual([3, 2, 1, 4]);
    expect(rankSweep(rows, 'maxDrawdownUsd').map((r) => r.threshold)).toEqual([2, 4, 3, 1]);
  });

  it('gives the event loop turns while it walks: other callbacks run before it answers', async () => {
    const page = waves(40_000);
    const repository = {
      // eslint-disable-next-line @typescript-eslint/require-await
      async *walkPages() {
        yield page;
      },
    } as unknown as OpportunityHistoryRepository;
    const config = { marketData: { exchanges: ['binance', 'okx'] }, history: { intervalMs: STEP } } as unknown as AppConfig;
    const service = new OpportunityHistoryService(repository, {} as RouteEpisodeRepository, config);
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await service.sweep({
      ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 90,
      thresholds: Array.from({ length: 20 }, (_, i) => i / 50), transferMinutes: Array.from({ length: 10 }, (_, i) => i * 5),
    });
    done = true;
    expect(result.rows).toHaveLength(200);
    // Without slicing the whole walk (40,000 samples × 20 thresholds, 200 rows of metrics, tens of
    // 5 ms slices on any machine) runs inside one turn, and the tick gets at most two.
    expect(turns).toBeGreaterThan(3);
  });
});
