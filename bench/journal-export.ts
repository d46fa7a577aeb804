import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/utils/test-database.js';
import { seedOperations } from './journal-seed.js';

// GET /v1/journal/export.csv of 1,000,000 rows; peak RSS growth under 64 MB shows it streams.
// The built service runs in its own process, as in production, so the figure is the service's
// alone (not the downloading client's): VmHWM, the kernel's peak RSS, reset just before the request.
// JOURNAL_EXPORT_ROWS only for quicker diagnostic runs; the recorded figure uses 1,000,000.
const ROWS = Number(process.env.JOURNAL_EXPORT_ROWS ?? 1_000_000);
const EMAIL = 'export-bench@example.com';
const WARM_UP_EMAIL = 'warm-up@example.com';
/** The Dockerfile's heap setting, and V8's default for comparison (a limit from the machine's RAM). */
const HEAPS: { name: string; nodeOptions: string }[] = [
  { name: 'shipped (--max-old-space-size=512)', nodeOptions: '--max-old-space-size=512' },
  { name: 'V8 default heap limit', nodeOptions: '' },
];
let db: TestDatabase;
let url: string;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  db = await createTestDatabase();
  url = db.env.DATABASE_URL as string;
  // The service creates the schema (migrations at start); the rows go in straight through SQL.
  const service = await startService('');
  await stopService(service.child);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const seeded = performance.now();
    const sql = { query: (text: string, params?: unknown[]) => client.query(text, params) };
    await seedOperations(sql, EMAIL, ROWS);
    await seedOperations(sql, WARM_UP_EMAIL, 2_000);
    console.log(`BENCH journal-export seeded ${ROWS} rows in ${Math.round((performance.now() - seeded) / 1000)} s`);
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  await db.drop();
});

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

/** `node dist/main.js` (run `npm run build` first) on the bench database, ready when /health answers. */
async function startService(nodeOptions: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions.split(' ').filter(Boolean), 'dist/main.js'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'warn', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (ok) return { child, baseUrl };
    if (tries > 300 || child.exitCode !== null) throw new Error('the service did not start (is dist/ built?)');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopService(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null) await once(child, 'exit');
}

/** VmRSS and VmHWM (peak RSS) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** Downloads the export, discarding bytes, counting lines. */
function download(baseUrl: string, email: string): Promise<{ bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}/v1/journal/export.csv?email=${encodeURIComponent(email)}`, (res) => {
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

it.each(HEAPS)(`export of ${ROWS} rows, $name`, async ({ name, nodeOptions }) => {
  const { child, baseUrl } = await startService(nodeOptions);
  try {
    const pid = child.pid as number;
    await download(baseUrl, WARM_UP_EMAIL);
    const before = memoryOf(pid);
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
    const started = performance.now();
    const { bytes, lines } = await download(baseUrl, EMAIL);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(pid);
    const figures = {
      heap: name,
      rows: lines - 1,
      megabytes: Math.round(bytes / 1e6),
      seconds: Math.round(seconds),
      rowsPerSecond: Math.round((lines - 1) / seconds),
      rssBeforeMB: before.rss,
      peakRssGrowthMB: after.peak - before.rss,
      rssAfterMB: after.rss,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`,
      loadAverage: os.loadavg().map((l) => l.toFixed(1)).join(' '),
      node: process.version,
    };
    console.log(`BENCH journal-export ${JSON.stringify(figures)}`);
    expect(lines - 1).toBe(ROWS);
  } finally {
    await stopService(child);
  }
});
