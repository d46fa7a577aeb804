import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../src/journal/journal-csv.js';
import { row as historyRow } from '../e2e/opportunity-history.fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../utils/service-process.js';
import { faultDatabase, postgresDatabase, type FaultDatabase } from './fault-database.js';
import { sleep, until } from '../utils/wait.js';

/**
 * the hardening, faults: SIGTERM while a journal import, a crossing-count run and a backtest are in
 * flight. The process exits within SHUTDOWN_TIMEOUT_MS, and after a restart the data is whole:
 * an import is one transaction (all of it or none), a crossing-count run can be re-run and gives
 * the same rows.
 */
const QUIET = { ENABLED_WEBSOCKET: '0', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0', LOG_LEVEL: 'info' };
const IMPORT_ROWS = 60_000;

function importCsv(rows: number, tag: string): string {
  const lines = [CSV_HEADER.join(',')];
  for (let i = 0; i < rows; i++) {
    lines.push(`,closed,other,BTC,binance,okx,1,0,100,,,101,0.1,0,0,false,,,,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,,${tag}-${i},`);
  }
  return lines.join('\n');
}

interface Outcome {
  status: number | null;
  body: string;
  /** The whole body was handed to the socket. */
  sent: Promise<void>;
}

/** POSTs `body`; resolves `sent` when it is all written, and the outcome when the exchange ends either way. */
function post(url: string, contentType: string, body: string): { sent: Promise<void>; done: Promise<Omit<Outcome, 'sent'>> } {
  let markSent = (): void => undefined;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const done = new Promise<Omit<Outcome, 'sent'>>((resolve) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? null, body: text }));
      res.on('error', () => resolve({ status: null, body: text }));
    });
    req.on('error', () => resolve({ status: null, body: '' }));
    req.end(body, markSent);
  });
  return { sent, done };
}

async function total(baseUrl: string, email: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/journal/operations?email=${encodeURIComponent(email)}&limit=1`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

/** Sends `signal` and resolves with the exit and how long it took. */
async function stop(service: ServiceProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const at = Date.now();
  service.signal(signal);
  const { code } = await service.exited;
  return { code, ms: Date.now() - at };
}

describe('SIGTERM during a journal import', () => {
  let db: FaultDatabase;
  beforeAll(async () => {
    db = await faultDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('within the deadline: the in-flight import finishes and is answered, then the process exits 0; all of it is stored', async () => {
    // A deadline the import keeps well inside even on a loaded machine with the embedded engine
    // (30,000 rows took up to 30 s there with a CI run and benches beside it).
    const service = await startServiceProcess({ ...db.env, ...QUIET, SHUTDOWN_TIMEOUT_MS: '90000' });
    const rows = IMPORT_ROWS / 2;
    const { sent, done } = post(`${service.baseUrl}/v1/journal/import?email=term@example.com`, 'text/csv', importCsv(rows, 't'));
    await sent;
    await sleep(200); // time: the import is under way (its body is being read) when SIGTERM comes
    const exit = await stop(service, 'SIGTERM');
    const outcome = await done;
    expect(service.output()).toContain('"msg":"shutting down"');
    expect(outcome.status).toBe(200);
    expect(JSON.parse(outcome.body)).toEqual({ created: rows, updated: 0, errors: [] });
    expect(exit.code, service.output().slice(-2000)).toBe(0);
    expect(exit.ms).toBeLessThan(90_000);
    // New connections were refused meanwhile.
    await expect(fetch(`${service.baseUrl}/health`)).rejects.toThrow();

    const again = await startServiceProcess({ ...db.env, ...QUIET });
    expect(await total(again.baseUrl, 'term@example.com')).toBe(rows);
    await stop(again, 'SIGTERM');
  }, 200_000);

  it('past the deadline: the process exits with code 1 and says so; nothing of the import is stored, earlier data is whole', async () => {
    const service = await startServiceProcess({ ...db.env, ...QUIET, SHUTDOWN_TIMEOUT_MS: '300' });
    const first = post(`${service.baseUrl}/v1/journal/import?email=kept@example.com`, 'text/csv', importCsv(50, 'k'));
    expect((await first.done).status).toBe(200);
    const { sent, done } = post(`${service.baseUrl}/v1/journal/import?email=cut@example.com`, 'text/csv', importCsv(IMPORT_ROWS, 'c'));
    await sent;
    await sleep(300); // time: the import is under way (its body is being read) when SIGTERM comes
    const exit = await stop(service, 'SIGTERM');
    expect(exit.code).toBe(1);
    expect(exit.ms).toBeLessThan(300 + 2_000);
    expect(service.output()).toContain('shutdown deadline passed; exiting with work unfinished');
    expect((await done).status).toBeNull();

    const again = await startServiceProcess({ ...db.env, ...QUIET });
    expect(await total(again.baseUrl, 'cut@example.com')).toBe(0);
    expect(await total(again.baseUrl, 'kept@example.com')).toBe(50);
    // The interrupted file can simply be sent again.
    const retry = post(`${again.baseUrl}/v1/journal/import?email=cut@example.com`, 'text/csv', importCsv(500, 'c'));
    expect((await retry.done).status).toBe(200);
    expect(await total(again.baseUrl, 'cut@example.com')).toBe(500);
    await stop(again, 'SIGTERM');
  }, 120_000);
});

describe('SIGTERM during a backtest', () => {
  let db: FaultDatabase;
  beforeAll(async () => {
    db = await faultDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('the process exits within the deadline and the recorded history is unchanged after a restart', async () => {
    const service = await startServiceProcess({ ...db.env, ...QUIET, SHUTDOWN_TIMEOUT_MS: '5000' });
    const now = Date.now();
    const rows = Array.from({ length: 20_000 }, (_, i) => historyRow(now - (i + 1) * 10_000, (i % 13) / 10));
    const imported = post(`${service.baseUrl}/v1/opportunity-history/import`, 'application/json', JSON.stringify(rows));
    expect((await imported.done).status).toBe(200);
    const stats = async (baseUrl: string) => (await fetch(`${baseUrl}/v1/opportunity-history/stats?ticker=BTC-USDT&buy=binance&sell=okx&days=3&threshold=0.5`)).text();
    const before = await stats(service.baseUrl);

    const body = JSON.stringify({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 3, threshold: 0.5, capital: 1000 });
    const backtests = Array.from({ length: 5 }, () => post(`${service.baseUrl}/v1/opportunity-history/backtest`, 'application/json', body));
    await Promise.all(backtests.map((b) => b.sent));
    const exit = await stop(service, 'SIGTERM');
    expect(exit.ms).toBeLessThan(5_000 + 2_000);
    for (const b of backtests) expect([200, null]).toContain((await b.done).status);

    const again = await startServiceProcess({ ...db.env, ...QUIET });
    expect(await stats(again.baseUrl)).toBe(before);
    await stop(again, 'SIGTERM');
  }, 120_000);
});

/**
 * Crossing counts read market samples, which only the live recorder writes: the samples are put
 * into PostgreSQL directly, so this test runs on PostgreSQL in both suites.
 */
describe('SIGTERM during a crossing-count run', () => {
  const DATE = '2026-03-10'; // São Paulo: 2026-03-10T03:00Z to 2026-03-11T03:00Z
  const GROUPS = 300;
  const SAMPLES = 1_000;
  let db: FaultDatabase;

  /** Group g flips side every k = g % 3 + 1 samples: ceil(1000 / k) − 1 crossings (999, 499, 333). */
  const expected = Array.from({ length: GROUPS }, (_, g) => ({ ticker: `T${g}-USDT`, crossing_count: Math.ceil(SAMPLES / ((g % 3) + 1)) - 1 }));

  beforeAll(async () => {
    db = await postgresDatabase();
    // The schema comes from the service's own migrations.
    const first = await startServiceProcess({ ...db.env, ...QUIET });
    await stop(first, 'SIGTERM');
    for (const day of ['2026-03-10', '2026-03-11']) {
      const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
      await db.query(`CREATE TABLE IF NOT EXISTS market_samples_p${day.replace(/-/g, '')} PARTITION OF market_samples FOR VALUES FROM ('${day}T00:00:00Z') TO ('${next}')`);
    }
    await db.query(
      `INSERT INTO market_samples (time, ticker, exchange, spot_bid, spot_ask, futures_bid, futures_ask)
       SELECT timestamptz '2026-03-10T03:00:00Z' + s * interval '50 ms', 'T' || g || '-USDT', 'binance',
              m - 1, m + 1, 99, 101
         FROM generate_series(0, $1 - 1) g, generate_series(0, $2 - 1) s,
              LATERAL (SELECT CASE WHEN (s / (g % 3 + 1)) % 2 = 0 THEN 101 ELSE 99 END AS m) side`,
      [GROUPS, SAMPLES],
    );
  }, 120_000);
  afterAll(async () => {
    await db.drop();
  });

  const stored = () =>
    db.query<{ ticker: string; crossing_count: number }>(
      `SELECT ticker, crossing_count FROM crossing_counts WHERE processing_date = $1 ORDER BY (substring(ticker from 2 for length(ticker) - 6))::int`,
      [DATE],
    );

  it('the process exits within the deadline; the day holds every group or none, and a re-run gives the hand-counted rows', async () => {
    const service = await startServiceProcess({ ...db.env, ...QUIET, SHUTDOWN_TIMEOUT_MS: '5000' });
    const accepted = await fetch(`${service.baseUrl}/v1/arbitrage/future/crossing-counts`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ date: DATE }),
    });
    expect(accepted.status).toBe(202);
    const exit = await stop(service, 'SIGTERM');
    expect(exit.ms).toBeLessThan(5_000 + 2_000);
    expect([0, GROUPS]).toContain((await stored()).length);

    const again = await startServiceProcess({ ...db.env, ...QUIET });
    const rerun = await fetch(`${again.baseUrl}/v1/arbitrage/future/crossing-counts`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ date: DATE }),
    });
    expect(rerun.status).toBe(202);
    const rows = await until(stored, (r) => JSON.stringify(r) === JSON.stringify(expected), 60_000, 250).catch(() => stored());
    expect(rows).toEqual(expected);
    await stop(again, 'SIGTERM');
  }, 180_000);
});
