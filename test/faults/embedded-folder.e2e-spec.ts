import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../src/journal/journal-csv.js';
import { runServiceToExit, startServiceProcess } from '../utils/service-process.js';

/**
 * the hardening, faults of the embedded database's folder (PGlite, the default without DATABASE_URL):
 * a folder that cannot be written stops the start at once with one sentence naming DB_PATH, and a
 * disk that fills up while the service runs costs the writes meanwhile (the endpoints' 500 texts),
 * never the data: space freed, writes work again, and the folder opens again after a restart.
 *
 * A small disk is a tmpfs mounted for the test (CI runs as root on its own machine).
 */
const QUIET = { ENABLED_WEBSOCKET: '0', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0' };
const FIRST_LINE_ONLY = /^DB_PATH \S+ cannot be used by the embedded database \((\w+)\): it must be a writable folder with free space\n$/;

function journalCsv(rows: number): string {
  const notes = 'n'.repeat(300);
  const lines = Array.from({ length: rows }, (_, i) =>
    `,closed,other,BTC,binance,okx,1,0,100,,,101,0.1,0,0,false,,,,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,,full-${i},${notes}`);
  return [CSV_HEADER.join(','), ...lines].join('\n');
}

async function importJournal(baseUrl: string, csv: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}/v1/journal/import?email=full@example.com`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
  return { status: res.status, body: await res.json() };
}

async function operations(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/journal/operations?email=full@example.com&limit=1`);
  return ((await res.json()) as { total: number }).total;
}

function mountTmpfs(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
}

describe('the embedded database folder', () => {
  let root: string;
  const mounts: string[] = [];
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'am-folder-'));
  });
  afterAll(() => {
    for (const dir of mounts) execFileSync('umount', ['-l', dir]);
    rmSync(root, { recursive: true, force: true });
  });

  it('a DB_PATH inside a file: the start stops with one line naming DB_PATH, no retries, no stack', async () => {
    writeFileSync(path.join(root, 'a-file'), 'x');
    const started = Date.now();
    const { code, output } = await runServiceToExit({ ...QUIET, DB_PATH: path.join(root, 'a-file', 'db') });
    expect(code).toBe(1);
    expect(output).toMatch(FIRST_LINE_ONLY);
    expect(FIRST_LINE_ONLY.exec(output)?.[1]).toBe('ENOTDIR');
    // Ten connection retries took 30 s before.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it('a read-only disk: the same sentence (EROFS), the folder untouched', async () => {
    const disk = path.join(root, 'ro');
    mountTmpfs(disk, '8m');
    mounts.push(disk);
    mkdirSync(path.join(disk, 'db'));
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    const { code, output } = await runServiceToExit({ ...QUIET, DB_PATH: path.join(disk, 'db') });
    expect(code).toBe(1);
    expect(FIRST_LINE_ONLY.exec(output)?.[1]).toBe('EROFS');
  }, 60_000);

  it('a disk that fills up while running: an import answers its 500 text and stores nothing, reads and /health go on, freed space heals it, the folder reopens', async () => {
    const disk = path.join(root, 'small');
    mountTmpfs(disk, '96m');
    mounts.push(disk);
    const env = { ...QUIET, DB_PATH: path.join(disk, 'db') };
    const service = await startServiceProcess(env);
    const favorite = (ticker: string) =>
      fetch(`${service.baseUrl}/v1/favorite-cryptos`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'disk@example.com', ticker }),
      });
    expect((await favorite('BTC-USDT')).status).toBe(201);

    // Everything left on the disk taken by another file.
    const filler = path.join(disk, 'filler');
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=200'], { stdio: 'ignore' });
    } catch {
      // dd stops with "No space left on device": that is the point.
    }
    const big = journalCsv(20_000);
    const cut = await importJournal(service.baseUrl, big);
    expect(cut).toEqual({ status: 500, body: { statusCode: 500, message: 'Failed to import journal', error: 'Internal Server Error' } });
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
    const list = await fetch(`${service.baseUrl}/v1/favorite-cryptos?email=disk@example.com`);
    expect(list.status).toBe(200);
    expect(await operations(service.baseUrl)).toBe(0);

    rmSync(filler);
    expect((await favorite('ETH-USDT')).status).toBe(201);
    expect(await importJournal(service.baseUrl, big)).toEqual({ status: 200, body: { created: 20_000, updated: 0, errors: [] } });
    service.signal('SIGTERM');
    expect((await service.exited).code).toBe(0);

    const again = await startServiceProcess(env);
    const stored = (await (await fetch(`${again.baseUrl}/v1/favorite-cryptos?email=disk@example.com`)).json()) as { ticker: string }[];
    expect(stored.map((f) => f.ticker).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(await operations(again.baseUrl)).toBe(20_000);
    again.signal('SIGTERM');
    await again.exited;
  }, 180_000);
});
