import os from 'node:os';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BacktestSample, runBacktest } from '../src/opportunity-history/backtest.engine.js';
import { OpportunityHistoryRepository } from '../src/opportunity-history/opportunity-history.repository.js';
import { OpportunityHistoryService } from '../src/opportunity-history/opportunity-history.service.js';
import { percentile, startProber } from '../test/utils/cost-bounds.js';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';

// 90 days at 10 s for one route (777,600 samples); backtest wall time including the
// database read (target under 1.5 s on PostgreSQL) and peak memory.
const SAMPLES = 777_600;
const STEP_S = 10;
const RUNS = 5;
const ROUTE = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };
const REQUEST = { ...ROUTE, days: 90, threshold: 0.2, basis: 'net', capital: 1000, transferMinutes: 5 };
const WALK = { basis: 'net' as const, threshold: REQUEST.threshold, capital: REQUEST.capital };
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});
let t: TestApp;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '1000000' });
  const started = performance.now();
  await seed(t.app.get(DataSource));
  console.log(`BENCH backtest seeded ${SAMPLES} samples in ${Math.round(performance.now() - started)} ms`);
});
afterAll(async () => {
  await t.close();
});

/**
 * Server-side generation keeps the seed to seconds: two sines give windows of many lengths
 * (gross roughly −0.2 … 0.9 %), every 13th sample has no viable network, every 97th default fees.
 * The last sample is a minute old, so the 90-day look-back holds all but the first few.
 */
async function seed(db: DataSource): Promise<void> {
  const first = new Date(Date.now() - 60_000 - (SAMPLES - 1) * STEP_S * 1000);
  await db.query(
    `INSERT INTO opportunity_history
       (ticker, buy_exchange, sell_exchange, time, buy_price, sell_price, gross_spread_percent, buy_fee_percent,
        sell_fee_percent, withdrawal_fee, withdrawal_fee_usd, fees_estimated, executable, volume_24h)
     SELECT 'BTC-USDT', 'binance', 'okx', $1::timestamptz + i * interval '${STEP_S} seconds', 65000, 65000 * (1 + g / 100), g,
            0.1, 0.1, 0.00002, 1.3, i % 97 = 0, i % 13 <> 0, 1e8
       FROM generate_series(0, ${SAMPLES - 1}) AS i,
            LATERAL (SELECT 0.35 + 0.45 * sin(i / 400.0) + 0.1 * sin(i / 7.0) AS g) AS s`,
    [first.toISOString()],
  );
  await db.query('ANALYZE opportunity_history');
}

/** Every sample of the look-back, unfiltered: the engine alone, and a cross-check of the skipping read. */
async function everySample(db: DataSource, range: { from: Date; to: Date }): Promise<BacktestSample[]> {
  return db.query(
    `SELECT round(date_part('epoch', time) * 1000) AS "time", gross_spread_percent AS "grossSpreadPercent",
            buy_fee_percent AS "buyFeePercent", sell_fee_percent AS "sellFeePercent",
            withdrawal_fee_usd AS "withdrawalFeeUsd", fees_estimated AS "feesEstimated", executable
       FROM opportunity_history WHERE time >= $1 AND time <= $2 ORDER BY opportunity_history.time`,
    [range.from.toISOString(), range.to.toISOString()],
  );
}

interface Measured<T> {
  result: T;
  wallMs: number;
  /** CPU time of this process: unlike wall time, barely moved by other load on the machine. */
  cpuMs: number;
  peakHeapMb: number;
  peakRssMb: number;
}

/** Peak heap and RSS while `run` executes, sampled between the page awaits. */
async function measure<T>(run: () => Promise<T>): Promise<Measured<T>> {
  let peakHeap = 0;
  let peakRss = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  gc();
  const timer = setInterval(sample, 2);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  sample();
  return { result, wallMs, cpuMs: (used.user + used.system) / 1000, peakHeapMb: peakHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20 };
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const sorted = <T>(runs: Measured<T>[]): Measured<T>[] => [...runs].sort((a, b) => a.wallMs - b.wallMs);

it(`backtest over ${SAMPLES} samples`, async () => {
  const history = t.app.get(OpportunityHistoryService);
  const repository = t.app.get(OpportunityHistoryRepository);
  const range = { from: new Date(Date.now() - 90 * 86_400_000), to: new Date() };
  await history.backtest(REQUEST); // warm-up: caches, JIT
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const full: Measured<Awaited<ReturnType<typeof history.backtest>>>[] = [];
  for (let run = 0; run < RUNS; run++) full.push(await measure(() => history.backtest(REQUEST)));
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  // Breakdown: the paged read alone, and the engine alone over samples already in memory.
  const read = await measure(async () => {
    let rows = 0;
    for await (const page of repository.walkPages(ROUTE, range, WALK)) rows += page.length;
    return rows;
  });
  const all: BacktestSample[] = await everySample(t.app.get(DataSource), range);
  const engine = await measure(() => Promise.resolve(runBacktest(all, { ...REQUEST, basis: 'net', intervalMs: STEP_S * 1000 })));
  const samplesInLookBack = all.length;
  all.length = 0;
  const http = await measure(() => fetch(`${t.baseUrl}/v1/opportunity-history/backtest`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(REQUEST),
  }).then((res) => res.json() as Promise<{ trades: number }>));
  const runs = sorted(full);
  const result = runs[0]?.result;
  const figures = {
    samplesInLookBack,
    rowsRead: read.result,
    runs: RUNS,
    wallMs: runs.map((r) => Math.round(r.wallMs)),
    cpuMs: runs.map((r) => Math.round(r.cpuMs)),
    readOnly: { wallMs: Math.round(read.wallMs), cpuMs: Math.round(read.cpuMs) },
    engineOnly: { wallMs: Math.round(engine.wallMs), cpuMs: Math.round(engine.cpuMs) },
    httpWallMs: Math.round(http.wallMs),
    heapBeforeMb: mb(heapBefore),
    peakHeapMb: Math.round(Math.max(...full.map((r) => r.peakHeapMb))),
    heapRetainedAfterMb: mb(heapAfter - heapBefore),
    peakRssMb: Math.round(Math.max(...full.map((r) => r.peakRssMb))),
    result: result && { trades: result.trades, completed: result.completed, expired: result.expired, unresolved: result.unresolved,
      skippedBusy: result.skippedBusy, skippedInfeasible: result.skippedInfeasible, netPercent: Number(result.netPercent.toFixed(2)) },
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
    loadAverage: os.loadavg().map((l) => l.toFixed(1)).join(' '),
    node: process.version,
  };
  console.log(`BENCH backtest ${JSON.stringify(figures)}`);
  expect(samplesInLookBack).toBeGreaterThan(SAMPLES - 100);
  // Skipping rows that cannot change the walk leaves the result as the full walk's (same range).
  const kept: BacktestSample[] = [];
  for await (const page of repository.walkPages(ROUTE, range, WALK)) kept.push(...page);
  expect(runBacktest(kept, { ...WALK, transferMinutes: REQUEST.transferMinutes, intervalMs: STEP_S * 1000 })).toEqual(engine.result);
});

// The sweep of 20 thresholds × 10 transfer times over the same 90 days (target under
// 3 s), with /health probed every 10 ms from another process meanwhile (p99 target under 100 ms).
const SWEEP = {
  ...ROUTE, days: 90, basis: 'net', capital: 1000,
  thresholds: Array.from({ length: 20 }, (_, i) => Number((0.1 + i * 0.01).toFixed(2))),
  transferMinutes: Array.from({ length: 10 }, (_, i) => i * 5),
};
const SWEEP_RUNS = 3;

it('sweep: 200 combinations over 90 days of 10 s samples', async () => {
  const post = (): Promise<{ rows: { trades: number }[] }> => fetch(`${t.baseUrl}/v1/opportunity-history/backtest/sweep`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SWEEP),
  }).then((res) => res.json() as Promise<{ rows: { trades: number }[] }>);
  await post(); // warm-up
  const prober = await startProber(t.baseUrl, 10);
  const runs: Measured<{ rows: { trades: number }[] }>[] = [];
  for (let run = 0; run < SWEEP_RUNS; run++) runs.push(await measure(post));
  const health = await prober.stop();
  const rows = runs[0]?.result.rows ?? [];
  const figures = {
    combinations: rows.length,
    tradesAllRows: rows.reduce((sum, r) => sum + r.trades, 0),
    wallMs: runs.map((r) => Math.round(r.wallMs)),
    cpuMs: runs.map((r) => Math.round(r.cpuMs)),
    peakHeapMb: Math.round(Math.max(...runs.map((r) => r.peakHeapMb))),
    healthProbes: health.latencies.length,
    healthStatuses: health.statuses,
    healthP50Ms: Number(percentile(health.latencies, 50).toFixed(1)),
    healthP99Ms: Number(percentile(health.latencies, 99).toFixed(1)),
    healthMaxMs: Number(Math.max(...health.latencies).toFixed(1)),
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
    loadAverage: os.loadavg().map((l) => l.toFixed(1)).join(' '),
  };
  console.log(`BENCH backtest sweep ${JSON.stringify(figures)}`);
  expect(rows).toHaveLength(200);
  // The targets, on a machine that is not oversubscribed: each sweep under 3 s, /health p99 under 100 ms meanwhile.
  expect(Math.max(...figures.wallMs)).toBeLessThan(3000);
  expect(figures.healthP99Ms).toBeLessThan(100);
});
