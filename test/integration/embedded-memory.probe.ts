import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { limitHeapGrowth } from '../../src/common/memory/heap-growth.js';
import { dataSourceOptions } from '../../src/database/database-options.js';
import { type MarketSample, MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';

/**
 * Run by embedded-memory.int-spec.ts in a process of its own (so nothing else's memory counts):
 * opens the embedded database in a new folder, then writes PROBE_ROWS market samples the way the
 * sample recorder does (one multi-row insert of 3,020 markets per tick), and prints the process's
 * RSS (VmRSS) after opening, after the writes, and its peak (VmHWM), in MB, as one JSON line.
 * Started with the service's node flags; limits the heap growth first, as the service's entry does.
 */
limitHeapGrowth();
const ROWS = Number(process.env.PROBE_ROWS ?? 100_000);
const MARKETS = 3_020;

function status(field: 'VmRSS' | 'VmHWM'): number {
  const line = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(line?.[1] ?? NaN) / 1024;
}

const folder = mkdtempSync(path.join(os.tmpdir(), 'embedded-memory-'));
const db = new DataSource(dataSourceOptions({ kind: 'pglite', path: path.join(folder, 'db') }));
try {
  await db.initialize();
  const samples = new MarketSampleRepository(db);
  const start = Date.now() - Math.ceil(ROWS / MARKETS) * 5_000;
  await samples.ensurePartitions(start, 2);
  const opened = status('VmRSS');
  for (let written = 0, tick = 0; written < ROWS; tick++) {
    const rows: MarketSample[] = [];
    for (let i = 0; i < MARKETS && written < ROWS; i++, written++) {
      const p = 100 + (i % 97) + tick / 1000;
      rows.push({ time: new Date(start + tick * 5_000), ticker: `BX${Math.floor(i / 10)}-USDT`, exchange: `x${i % 10}`, spotBid: p, spotAsk: p + 0.01, futuresBid: p + 0.02, futuresAsk: p + 0.03, fundingRate: 0.0001 });
    }
    await samples.insert(rows);
  }
  const [{ n }] = await db.query<[{ n: number }]>('SELECT count(*)::int AS n FROM market_samples');
  process.stdout.write(`${JSON.stringify({ rows: n, openedMb: opened, afterMb: status('VmRSS'), peakMb: status('VmHWM') })}\n`);
} finally {
  await db.destroy().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
}
