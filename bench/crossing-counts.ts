import os from 'node:os';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saoPauloEndOfDay, saoPauloStartOfDay } from '../src/common/time/sao-paulo.js';
import { CrossingCountWorker, type DayResult } from '../src/crossing-counts/crossing-count.worker.js';
import { MarketSampleRepository } from '../src/market-data/market-sample.repository.js';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';

// One São Paulo day of samples for 1,500 (ticker, exchange) pairs at 5 s (25,920,000
// rows) on PostgreSQL: job wall time (target under 2 minutes) and peak memory, which must stay
// flat as rows grow, so the same day is also measured at 20 s (a quarter of the rows).
const DAY = '2026-03-10';
const PAIRS = 1500;
const EXCHANGES = ['binance', 'bybit', 'okx', 'gate', 'bitget'];
// The full size, and two smaller ones to show the job's memory stays flat as rows grow.
// CROSSING_BENCH_FULL=0 skips the full size (seeding it takes ~7 minutes on an idle machine).
const SIZES = [
  { label: 'sixteenth (80 s)', stepS: 80 },
  { label: 'quarter (20 s)', stepS: 20 },
  ...(process.env.CROSSING_BENCH_FULL === '0' ? [] : [{ label: 'full (5 s)', stepS: 5 }]),
];
/** Rows per seeding statement: one hour of the full size, so progress shows and WAL stays bounded. */
const SEED_CHUNK_S = 3600;
let t: TestApp;
let db: DataSource;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  t = await startTestApp({ SAMPLE_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  db = t.app.get(DataSource);
  const samples = t.app.get(MarketSampleRepository);
  const created = await samples.ensurePartitions(saoPauloStartOfDay(DAY).getTime(), 2);
  // Scratch data: unlogged partitions only make the seeding faster; reads are unaffected.
  for (const name of created) await db.query(`ALTER TABLE ${name} SET UNLOGGED`);
});
afterAll(async () => {
  await t?.close(); // drops the scratch database
});

/**
 * Server-side generation in time-major order, as the recorder writes (every pair at one instant,
 * then the next instant), so the heap is NOT in the job's (ticker, exchange, time) read order.
 * Spot mid wanders around the futures mid (100) with a per-pair phase, rounded to cents so exact
 * touches occur too: roughly a hundred crossings per pair and day.
 */
async function seed(stepS: number): Promise<number> {
  await db.query('TRUNCATE market_samples');
  const start = saoPauloStartOfDay(DAY).getTime();
  const end = saoPauloEndOfDay(DAY).getTime();
  for (let chunk = start; chunk < end; chunk += SEED_CHUNK_S * 1000) {
    const steps = Math.min(SEED_CHUNK_S, (end - chunk) / 1000) / stepS;
    await db.query(
      `INSERT INTO market_samples (time, ticker, exchange, spot_bid, spot_ask, futures_bid, futures_ask, funding_rate)
       SELECT $1::timestamptz + s * make_interval(secs => $2), 'T' || lpad((p / 5)::text, 3, '0') || '-USDT',
              ($3::text[])[p % 5 + 1], m - 0.005, m + 0.005, 99.995, 100.005, 0.0001
         FROM generate_series(0, $4 - 1) AS s, generate_series(0, ${PAIRS - 1}) AS p,
              LATERAL (SELECT round((100 + 0.05 * sin((extract(epoch FROM $1::timestamptz) / $2 + s + p * 7) / 50.0))::numeric, 2)::float8 AS m) AS x`,
      [new Date(chunk).toISOString(), stepS, EXCHANGES, steps],
    );
  }
  await db.query('ANALYZE market_samples');
  const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM market_samples`);
  return n as number;
}

/** Wall time, and peak RSS / heap above the idle baseline, sampled while the job yields between pages. */
async function measure(run: () => Promise<DayResult>) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  const timer = setInterval(sample, 5);
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  sample();
  const mb = (bytes: number): number => Math.round(bytes / 1048576);
  return { result, seconds, baseHeapMb: mb(base.heapUsed), peakHeapMb: mb(peakHeap), baseRssMb: mb(base.rss), peakRssMb: mb(peakRss) };
}

it('counts a day of samples for 1,500 pairs in keyset pages, in flat memory', async () => {
  console.log(`BENCH crossing machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`);
  for (const size of SIZES) {
    const seedStarted = performance.now();
    const rows = await seed(size.stepS);
    console.log(`BENCH crossing ${size.label}: seeded ${rows} rows in ${Math.round((performance.now() - seedStarted) / 1000)} s`);
    const m = await measure(() => t.app.get(CrossingCountWorker).countDay(DAY));
    expect(m.result).toMatchObject({ groups: PAIRS, samples: rows });
    const [{ total }] = await db.query(`SELECT sum(crossing_count)::int AS total FROM crossing_counts WHERE processing_date = $1`, [DAY]);
    console.log(
      `BENCH crossing ${size.label}: ${rows} rows, ${m.result.groups} groups, ${total} crossings; job ${m.seconds.toFixed(1)} s ` +
        `(${Math.round(rows / m.seconds / 1000)} k rows/s); heap ${m.baseHeapMb} -> peak ${m.peakHeapMb} MB; rss ${m.baseRssMb} -> peak ${m.peakRssMb} MB`,
    );
  }
});
