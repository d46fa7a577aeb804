import os from 'node:os';
import http from 'node:http';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';
import { seedOperations } from './journal-seed.js';

// Issue 7: GET /v1/journal/export.csv of 1,000,000 rows; peak RSS growth under 64 MB shows it streams.
// JOURNAL_EXPORT_ROWS only for quicker diagnostic runs; the recorded figure uses 1,000,000.
const ROWS = Number(process.env.JOURNAL_EXPORT_ROWS ?? 1_000_000);
const EMAIL = 'export-bench@example.com';
let t: TestApp;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  t = await startTestApp();
  const seeded = performance.now();
  await seedOperations(t.app.get(DataSource), EMAIL, ROWS);
  console.log(`BENCH journal-export seeded ${ROWS} rows in ${Math.round((performance.now() - seeded) / 1000)} s`);
});
afterAll(async () => {
  await t.close();
});

/** Downloads the export in this process, discarding bytes, counting lines. */
function download(url: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let bytes = 0;
        let lines = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        });
        res.on('end', () => resolve({ bytes, lines }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

it(`export of ${ROWS} rows`, async () => {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const { bytes, lines } = await download(`${t.baseUrl}/v1/journal/export.csv?email=${encodeURIComponent(EMAIL)}`);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const figures = {
    rows: lines - 1,
    megabytes: Math.round(bytes / 1e6),
    seconds: Math.round(seconds),
    rowsPerSecond: Math.round((lines - 1) / seconds),
    rssBeforeMB: Math.round(before / 2 ** 20),
    peakRssGrowthMB: Math.round((peak - before) / 2 ** 20),
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
    node: process.version,
  };
  console.log(`BENCH journal-export ${JSON.stringify(figures)}`);
  expect(lines - 1).toBe(ROWS);
});
