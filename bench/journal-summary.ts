import os from 'node:os';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';
import { percentile, seedOperations } from './journal-seed.js';

// GET /v1/journal/summary over 100,000 operations of one user, p50 under 300 ms on PostgreSQL.
const OPERATIONS = 100_000;
const RUNS = 30;
const EMAIL = 'bench@example.com';
let t: TestApp;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  t = await startTestApp();
  await seedOperations(t.app.get(DataSource), EMAIL, OPERATIONS);
});
afterAll(async () => {
  await t.close();
});

it(`summary over ${OPERATIONS} operations`, async () => {
  const url = `${t.baseUrl}/v1/journal/summary?email=${encodeURIComponent(EMAIL)}`;
  const timings: number[] = [];
  let body: { series: unknown[]; openOperations: number } | undefined;
  for (let run = 0; run < RUNS + 3; run++) {
    const started = performance.now();
    const res = await fetch(url);
    body = (await res.json()) as typeof body;
    if (run >= 3) timings.push(performance.now() - started); // three warm-up runs
  }
  timings.sort((a, b) => a - b);
  const figures = {
    operations: OPERATIONS,
    runs: RUNS,
    p50Ms: Math.round(percentile(timings, 50)),
    p90Ms: Math.round(percentile(timings, 90)),
    minMs: Math.round(timings[0] ?? NaN),
    seriesDays: body?.series.length,
    openOperations: body?.openOperations,
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
    node: process.version,
  };
  console.log(`BENCH journal-summary ${JSON.stringify(figures)}`);
  expect(body?.openOperations).toBe(OPERATIONS / 20);
});
