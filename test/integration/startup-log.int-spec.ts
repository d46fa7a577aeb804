import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../utils/service-process.js';
import { LOCAL_POSTGRES } from '../utils/test-database.js';

/**
 * Settings that are each valid but do nothing together, or a start that changes the user's
 * server, get one line in the service's own log: read here from the running process's output,
 * as a person starting it would see it. The log is JSON lines (LOG_FORMAT=json).
 * Runs in one database pass only (it starts its own processes with their own databases).
 */
const QUIET = { SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0' };

type Line = { level?: string; context?: string; msg?: string; database?: string; keyFile?: string; keyId?: string; created?: boolean };
const records = (output: string): Line[] =>
  output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
const mentioning = (output: string, text: string): string[] => output.split('\n').filter((l) => l.includes(text));

describe('start-up log lines for a misconfiguration', () => {
  let root: string;
  const running: ServiceProcess[] = [];
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'am-startup-log-'));
  });
  afterAll(async () => {
    for (const s of running) {
      s.signal('SIGKILL');
      await s.exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('MARKET_SIMULATOR_URL without ENABLED_WEBSOCKET: one warning naming both, and the fix', async () => {
    // Nothing listens there: with the feeds off, nothing ought to try.
    const service = await startServiceProcess({ ...QUIET, DB_PATH: path.join(root, 'sim-url'), MARKET_SIMULATOR_URL: 'http://127.0.0.1:9' });
    running.push(service);
    const lines = mentioning(service.output(), 'MARKET_SIMULATOR_URL');
    expect(lines).toHaveLength(1);
    const [record] = records(lines[0] ?? '');
    expect(record).toMatchObject({ level: 'warn', context: 'Config' });
    expect(record?.msg).toContain('ENABLED_WEBSOCKET is off');
    expect(record?.msg).toContain('set ENABLED_WEBSOCKET=1');
  }, 90_000);

  it('the feeds off: one line saying no venue is watched and how to start the feeds', async () => {
    const service = await startServiceProcess({ ...QUIET, DB_PATH: path.join(root, 'feeds-off') });
    running.push(service);
    const lines = mentioning(service.output(), 'ENABLED_WEBSOCKET');
    expect(lines).toHaveLength(1);
    const [record] = records(lines[0] ?? '');
    expect(record).toMatchObject({ level: 'warn', context: 'Config' });
    expect(record?.msg).toContain('no venue is watched');
    expect(record?.msg).toContain('set ENABLED_WEBSOCKET=1');
  }, 90_000);

  it('names the secrets key file it created beside the embedded folder, and its id, never the key', async () => {
    const service = await startServiceProcess({ ...QUIET, ENABLED_WEBSOCKET: '0', DB_PATH: path.join(root, 'keyed', 'pglite') });
    running.push(service);
    const keyFile = path.join(root, 'keyed', 'secrets.key');
    const lines = records(service.output()).filter((r) => r.context === 'Secrets');
    expect(lines).toEqual([expect.objectContaining({ level: 'info', msg: 'secrets key', keyFile, created: true })]);
    expect(lines[0]?.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(service.output()).not.toContain(key);
    expect(service.output()).not.toContain(Buffer.from(key, 'hex').toString('base64'));
  }, 90_000);
});

describe('start-up log line for a PostgreSQL database created on the way', () => {
  const server = new URL(process.env.DATABASE_URL ?? LOCAL_POSTGRES);
  const name = `created_${randomBytes(4).toString('hex')}`;
  let service: ServiceProcess | undefined;
  const admin = async (sql: string): Promise<void> => {
    const url = new URL(server.toString());
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    service?.signal('SIGKILL');
    await service?.exited;
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('names the database it created, once, at info level', async () => {
    const url = new URL(server.toString());
    url.pathname = `/${name}`;
    service = await startServiceProcess({ ...QUIET, ENABLED_WEBSOCKET: '0', DATABASE_URL: url.toString() });
    const created = records(service.output()).filter((r) => r.context === 'Database' && r.msg?.includes('created'));
    expect(created).toEqual([expect.objectContaining({ level: 'info', database: name })]);
    expect(service.output()).not.toMatch(/\n\s+at /);
  }, 90_000);
});
