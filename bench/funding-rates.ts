import { fork } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FundingRatesService } from '../src/funding-rates/funding-rates.service.js';
import { FundingSettlementRepository, type StoredSettlement } from '../src/funding-rates/funding-settlement.repository.js';
import { FundingSettlementsService } from '../src/funding-rates/funding-settlements.service.js';
import { EXCHANGE_NAMES } from '../src/market-model/exchanges.js';
import { SettledFundingCache } from '../src/funding-rates/settled-funding.cache.js';
import { DEFAULT_SIM_SYMBOLS } from '../src/simulator/instruments.js';
import { startSimulator, type RunningSimulator } from '../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';

// 3,020 contracts in memory (604 bases × 5 exchanges, read by the real collector through ccxt
// from the simulator) with 30 days of settled payments each in funding_settlements (on each
// perpetual's simulated interval, so 90 to 720 payments), GET /v1/funding-rates (and its sorts)
// and GET /v1/funding-rates/spreads latency p50/p99 under load with the arbitrage rate limit
// raised. Load: 1 (latency alone) and 32 (under load) requests kept in flight from a child
// process, each for DURATION_MS. Target: p99 < 100 ms per request.
const BASES = 604;
const DAY_MS = 86_400_000;
const CONCURRENCIES = [1, 32];
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);
const SCENARIOS: [string, string][] = [
  ['first page (default limit 100)', ''],
  ['full page (limit 500, offset 1000)', '?limit=500&offset=1000'],
  ['filtered (exchange=okx&symbol=b1)', '?exchange=okx&symbol=b1'],
  ['minimal page (limit 1): the HTTP pipeline floor', '?limit=1'],
  ['sorted by settled 7-day APR (sort=apr7d)', '?sort=apr7d'],
  ['sorted by |APR| with a ticker (sort=absApr&ticker=b1)', '?sort=absApr&ticker=b1'],
  ['spreads (days=7, first 100)', '/spreads'],
];

let sim: RunningSimulator;
let t: TestApp;

beforeAll(async () => {
  const extra = Array.from({ length: BASES - DEFAULT_SIM_SYMBOLS.length }, (_, i) => `B${String(i).padStart(3, '0')}`);
  sim = await startSimulator({ port: 0, symbols: [...DEFAULT_SIM_SYMBOLS, ...extra], walk: false });
  t = await startTestApp({ MARKET_SIMULATOR_URL: sim.url, FUNDING_REFRESH_MS: '0', ARBITRAGE_RATE_LIMIT: '1000000000', SAMPLE_INTERVAL_MS: '0' });
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function load(url: string, concurrency: number): Promise<{ latencies: number[]; errors: number; statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./funding-rates-client.mjs', import.meta.url));
    child.once('message', (m) => resolve(m as { latencies: number[]; errors: number; statuses: Record<string, number> }));
    child.once('error', reject);
    child.send({ url, concurrency, durationMs: DURATION_MS });
  });
}

it('GET /v1/funding-rates and /spreads over 3,020 contracts with 30 days of settlements', async () => {
  const service = t.app.get(FundingRatesService);
  const settlements = t.app.get(FundingSettlementsService);
  // The request path only: the table is seeded below, so the venues' history is not read.
  settlements.backfill = () => Promise.resolve();
  const seeded = await seedSettlements();
  await service.collect(); // first read loads markets, and the settled cache from the table
  // Every perpetual's figures at once (as at a payment time all venues share), in a fresh cache.
  const fresh = new SettledFundingCache();
  for (const f of EXCHANGE_NAMES.flatMap((e) => sim.state.funding.list(e))) fresh.add(f.exchange, f.ticker, settlements.cache.settlements(f.exchange, f.ticker));
  const refreshStarted = performance.now();
  await fresh.refresh(Date.now());
  console.log(`BENCH funding settled figures of ${fresh.size} perpetuals from ${seeded} payments: ${(performance.now() - refreshStarted).toFixed(0)} ms (in slices of 200)`);
  const started = performance.now();
  const result = await service.collect();
  const collectMs = performance.now() - started;
  expect(result.contracts).toBe(BASES * 5);
  expect(service.list({ sort: 'apr30d', limit: '1' }).data[0]?.apr30d).not.toBeNull();
  console.log(`BENCH funding machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load avg ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version}`);
  console.log(`BENCH funding collection of ${result.contracts} contracts (5 exchanges via ccxt, build + sort): ${collectMs.toFixed(0)} ms`);
  for (const [name, query] of [['limit 100', '100'], ['limit 500 offset 1000', '500']] as const) {
    const runs = 2000;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) JSON.stringify(service.list({ limit: query, offset: name.includes('offset') ? '1000' : undefined }));
    console.log(`BENCH funding in-process list + JSON.stringify, ${name}: ${(((performance.now() - t0) / runs) * 1000).toFixed(0)} µs per call`);
  }
  for (const [name, call] of [
    ['sort=apr7d, limit 100', () => service.list({ sort: 'apr7d' })],
    ['spreads, days=7, limit 100', () => service.spreads({})],
  ] as const) {
    const runs = 2000;
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) JSON.stringify(call());
    console.log(`BENCH funding in-process ${name} + JSON.stringify: ${(((performance.now() - t0) / runs) * 1000).toFixed(0)} µs per call`);
  }
  for (const concurrency of CONCURRENCIES) {
    for (const [name, query] of SCENARIOS) await report(name, `${t.baseUrl}/v1/funding-rates${query}`, concurrency);
  }
});

async function report(name: string, url: string, concurrency: number): Promise<void> {
  const { latencies, errors, statuses } = await load(url, concurrency);
  const sorted = [...latencies].sort((a, b) => a - b);
  expect(statuses['200']).toBe(latencies.length);
  console.log(
    `BENCH funding c=${concurrency} ${name}: ${latencies.length} requests in ${DURATION_MS / 1000} s ` +
    `(${(latencies.length / (DURATION_MS / 1000)).toFixed(0)} req/s), p50 ${pct(sorted, 50).toFixed(2)} ms, ` +
    `p99 ${pct(sorted, 99).toFixed(2)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(2)} ms, errors ${errors}`,
  );
}

/** 30 days of payments of every perpetual, on its simulated interval, rates around its current one. */
async function seedSettlements(): Promise<number> {
  const repo = t.app.get(FundingSettlementRepository);
  const now = Date.now();
  let total = 0;
  for (const exchange of EXCHANGE_NAMES) {
    const rows: StoredSettlement[] = [];
    for (const f of sim.state.funding.list(exchange)) {
      const hours = f.intervalHours ?? 8;
      const step = hours * 3_600_000;
      for (let at = Math.floor(now / step) * step, i = 0; at > now - 30 * DAY_MS; at -= step, i++) {
        rows.push({ exchange, ticker: f.ticker, settledAt: at, rate: Number(((f.fundingRate ?? 0.0001) * (1 + ((i % 7) - 3) / 10)).toFixed(8)), intervalHours: hours, markPrice: null });
      }
    }
    await repo.save(rows, 'venue');
    total += rows.length;
  }
  return total;
}
