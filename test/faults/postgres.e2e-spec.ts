import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../src/journal/journal-csv.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { freePort } from '../utils/service-process.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { sleep, until } from '../utils/wait.js';

/**
 * the hardening, PostgreSQL faults, on a server of the test's own (initdb in a temporary folder, run
 * as the postgres user), so it can be stopped and started without touching other test files:
 * its sessions killed mid-import (pg_terminate_backend), and the server stopped and started
 * again during writes. Requests answer their documented 500 texts or 503 while it is down, none
 * hangs, the service reconnects by itself, nothing acknowledged is lost, nothing half-written
 * stays, and the sample recorder resumes.
 */
const PG_BIN = execFileSync('pg_config', ['--bindir']).toString().trim();

class PrivateCluster {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'am-pg-'));
  constructor(readonly port: number) {
    chownSync(this.dir, uid('postgres'), gid('postgres'));
    this.asPostgres('initdb', ['-D', this.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }
  get data(): string {
    return path.join(this.dir, 'data');
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
  start(): void {
    this.asPostgres('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'log'), '-w', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }
  stop(): void {
    this.asPostgres('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }
  remove(): void {
    try {
      this.stop();
    } catch {
      // Already stopped.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  private asPostgres(tool: string, args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, tool), ...args], { stdio: 'ignore' });
  }
}

const uid = (user: string): number => Number(execFileSync('id', ['-u', user]).toString());
const gid = (user: string): number => Number(execFileSync('id', ['-g', user]).toString());

describe('PostgreSQL faults', () => {
  let cluster: PrivateCluster;
  let sim: RunningSimulator;
  let t: TestApp;

  beforeAll(async () => {
    cluster = new PrivateCluster(await freePort());
    cluster.start();
    sim = await startSimulator({ port: 0, symbols: ['BTC'], walk: false });
    t = await startTestApp({
      DATABASE_URL: cluster.url,
      ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: sim.url, EXCHANGES: 'binance', SYMBOLS: 'BTC-USDT',
      SAMPLE_INTERVAL_MS: '500', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sim?.close();
    cluster?.remove();
  });

  const samples = async () => Number((await cluster.query<{ n: string }>(`SELECT count(*) AS n FROM market_samples`))[0]?.n);

  it('sessions killed mid-import: the import answers its 500 text, stores nothing, and the next requests work', async () => {
    const rows = Array.from({ length: 60_000 }, (_, i) =>
      `,closed,other,BTC,binance,okx,1,0,100,,,101,0.1,0,0,false,,,,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,,k-${i},`);
    const pending = fetch(`${t.baseUrl}/v1/journal/import?email=killed@example.com`, {
      method: 'POST', headers: { 'content-type': 'text/csv' }, body: [CSV_HEADER.join(','), ...rows].join('\n'),
    });
    // Wait until the import's transaction is writing, then end every session of the service.
    await until(
      () => cluster.query(`SELECT 1 FROM pg_stat_activity WHERE xact_start IS NOT NULL AND query LIKE 'INSERT INTO journal_operations%'`),
      (busy) => busy.length > 0, 5_000, 25,
    ).catch(() => undefined); // a fast import may finish first: the kill below then finds the idle sessions
    const killed = await cluster.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'postgres' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`);
    expect(killed.length).toBeGreaterThan(0);
    const res = await pending;
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ statusCode: 500, message: 'Failed to import journal', error: 'Internal Server Error' });
    expect((await cluster.query(`SELECT 1 FROM journal_operations WHERE email = 'killed@example.com'`)).length).toBe(0);

    const after = await fetch(`${t.baseUrl}/v1/favorite-cryptos`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'after@example.com', ticker: 'BTC-USDT' }),
    });
    expect(after.status).toBe(201);
  }, 60_000);

  it('the server stopped and started during writes: 500 texts or 503 meanwhile, none hangs, /health says so, all heals by itself', async () => {
    // The recorder writes samples before the outage.
    await until(samples, (n) => n > 0, 10_000);

    const answers: { status: number; body: unknown }[] = [];
    const acknowledged: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const ticker = `W${i}-USDT`;
        const res = await fetch(`${t.baseUrl}/v1/favorite-cryptos`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'outage@example.com', ticker }),
          signal: AbortSignal.timeout(10_000),
        });
        answers.push({ status: res.status, body: await res.json() });
        if (res.status === 201) acknowledged.push(`W${i}USDT`);
        await sleep(20); // time: the writer's pace, one write every 20 ms through the outage
      }
    })();

    await until(() => acknowledged.length, (n) => n >= 3, 10_000, 20);
    cluster.stop();
    await until(async () => (await fetch(`${t.baseUrl}/health`)).status, (s) => s === 503, 3_000);
    await sleep(1_000); // time: writes keep failing for a second of outage before the server returns
    const duringOutage = answers.length;
    cluster.start();
    await until(() => answers.slice(duringOutage).some((a) => a.status === 201), Boolean, 20_000);
    writing = false;
    await writer;

    expect(answers.some((a) => a.status !== 201)).toBe(true);
    expect(answers.at(-1)?.status).toBe(201);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect([
        { status: 500, body: { statusCode: 500, message: 'Failed to create favorite crypto', error: 'Internal Server Error' } },
        { status: 503, body: expect.objectContaining({ statusCode: 503 }) as unknown },
      ]).toContainEqual(a);
    }
    // /health follows the background ping (every second).
    await until(async () => (await fetch(`${t.baseUrl}/health`)).status, (s) => s === 200, 5_000);
    const stored = new Set((await cluster.query<{ ticker: string }>(`SELECT ticker FROM favorite_cryptos WHERE email = 'outage@example.com'`)).map((r) => r.ticker));
    expect(acknowledged.filter((ticker) => !stored.has(ticker))).toEqual([]);

    // The recorder resumed on its own.
    const before = await samples();
    await until(samples, (n) => n > before, 10_000);
  }, 90_000);
});
