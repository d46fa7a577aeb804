import { spawn } from 'node:child_process';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { row } from '../e2e/opportunity-history.fixtures.js';

/**
 * Every endpoint whose work a client sizes, at the largest size it may
 * ask for, fired 50 at a time while /health is sampled. Shared by the CI test
 * (test/e2e/cost-bounds.e2e-spec.ts) and `npm run bench:cost` (bench/cost-bounds.ts).
 */
export const JOURNAL_HEADER =
  'id,status,strategy,asset,buy_exchange,sell_exchange,quantity,short_quantity,entry_buy_price,entry_sell_price,' +
  'exit_buy_price,exit_sell_price,trading_fees,withdrawal_fees,funding,fees_estimated,gross_pnl,net_pnl,net_pnl_pct,' +
  'opened_at,closed_at,source,external_id,notes';
const ROUTE = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };
const DAY_MS = 86_400_000;

export type WorstCase = [label: string, method: 'GET' | 'POST', path: string, body?: { type: string; text: string }];

/** `rows` closed operations one every 151 days from 1900 (a summary from 1500 spans them all). */
export function journalCsv(rows: number, externalPrefix: string): string {
  const lines = Array.from({ length: rows }, (_, i) => {
    const opened = new Date(Date.parse('1900-01-01T12:00:00Z') + i * 151 * DAY_MS).toISOString();
    const closed = new Date(Date.parse(opened) + 3_600_000).toISOString();
    return `,,other,BTC,binance,okx,1,0,100,,,${100 + (i % 7) - 3},0.1,0,0,false,,,,${opened},${closed},,${externalPrefix}${i},`;
  });
  return [JOURNAL_HEADER, ...lines].join('\n');
}

const json = (value: unknown) => ({ type: 'application/json', text: JSON.stringify(value) });

/**
 * The widest period (from=1500), the most rows (limit=500, the whole export), the longest
 * look-back (days=90), the widest day range, and imports of `importRows` rows each. One
 * summary with from=1500-01-01 held the event loop for 7-11 s.
 */
export function worstCases(importRows: number): WorstCase[] {
  const now = Date.now();
  const samples = Array.from({ length: importRows }, (_, i) => row(now - 3 * DAY_MS - (i + 1) * 10_000, (i % 10) / 10));
  return [
    ['summary, an e-mail with no operation, from=1500', 'GET', '/v1/journal/summary?email=nobody@example.com&from=1500-01-01T00:00:00Z'],
    ['summary, a trader with operations, from=1500', 'GET', '/v1/journal/summary?email=heavy@example.com&from=1500-01-01T00:00:00Z'],
    ['operations, limit=500', 'GET', '/v1/journal/operations?email=heavy@example.com&limit=500'],
    ['export of every operation', 'GET', '/v1/journal/export.csv?email=heavy@example.com'],
    ['journal import', 'POST', '/v1/journal/import?email=importer@example.com', { type: 'text/csv', text: journalCsv(importRows, 'i') }],
    ['stats over 90 days', 'GET', '/v1/opportunity-history/stats?ticker=BTC-USDT&buy=binance&sell=okx&days=90&threshold=0'],
    ['lifetimes over 90 days', 'GET', '/v1/opportunity-history/lifetimes?ticker=BTC-USDT&buy=binance&sell=okx&days=90'],
    ['backtest over 90 days', 'POST', '/v1/opportunity-history/backtest', json({ ...ROUTE, days: 90, threshold: 0 })],
    ['history import', 'POST', '/v1/opportunity-history/import', json(samples)],
    ['crossing counts over 400 years', 'GET', '/v1/arbitrage/future/crossing-counts?from=1700-01-01&to=2100-12-31'],
    ['funding rates, limit=500', 'GET', '/v1/funding-rates?limit=500'],
  ];
}

/** The data the worst cases read: `operations` journal rows and `samples` of the route in the last days. */
export async function seedCostData(baseUrl: string, operations: number, samples: number): Promise<void> {
  await request(baseUrl).post('/v1/journal/import').query({ email: 'heavy@example.com' }).set('Content-Type', 'text/csv')
    .send(journalCsv(operations, 'e')).expect(200);
  const now = Date.now();
  const rows = Array.from({ length: samples }, (_, i) => row(now - (i + 1) * 60_000, (i % 10) / 10));
  await request(baseUrl).post('/v1/opportunity-history/import').send(rows).expect(200, { imported: samples });
}

/** One request on its own connection; the body is read and dropped (the client must cost ~nothing). */
export function call(baseUrl: string, method: string, path: string, body?: { type: string; text: string }): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      method,
      agent: false,
      headers: body ? { 'Content-Type': body.type, 'Content-Length': Buffer.byteLength(body.text) } : {},
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body?.text);
  });
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

export interface LoadFigures {
  requests: number;
  failed: string[];
  slowestMs: number;
  healthSamples: number;
  healthStatuses: number[];
  healthP99Ms: number;
  healthMaxMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Health probes from another process (health-prober.mjs), so this process's own loop cannot skew them. */
export async function startProber(baseUrl: string, intervalMs: number): Promise<{ stop(): Promise<{ latencies: number[]; statuses: number[] }> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./health-prober.mjs', import.meta.url)), baseUrl, String(intervalMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve) => {
    const ready = (): void => {
      if (!out.startsWith('ready\n')) return;
      child.stdout.off('data', ready);
      resolve();
    };
    child.stdout.on('data', ready);
  });
  out = '';
  return {
    stop: async () => {
      child.stdin.end('stop\n');
      await exited;
      return JSON.parse(out) as { latencies: number[]; statuses: number[] };
    },
  };
}

/**
 * Fires `parallel` of each worst case at once while another process probes /health every 10 ms
 * on a fixed schedule (open loop: a 2 s freeze shows as 200 slow probes, not one), over
 * connections it opened before (health-prober.mjs says why). The event-loop delay of this
 * process (the app runs in it) is recorded beside it.
 */
export async function runWorstCases(baseUrl: string, cases: WorstCase[], parallel: number): Promise<LoadFigures> {
  await call(baseUrl, 'GET', '/health'); // warm
  const prober = await startProber(baseUrl, 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const results = await Promise.all(
    cases.flatMap(([label, method, path, body]) =>
      Array.from({ length: parallel }, () => call(baseUrl, method, path, body).then((r) => ({ label, ...r }))),
    ),
  );
  loop.disable();
  const health = await prober.stop();
  return {
    requests: results.length,
    failed: results.filter((r) => r.status !== 200).map((r) => `${r.label}: ${r.status}`),
    slowestMs: Math.round(Math.max(...results.map((r) => r.ms))),
    healthSamples: health.latencies.length,
    healthStatuses: health.statuses,
    healthP99Ms: Math.round(percentile(health.latencies, 99)),
    healthMaxMs: Math.round(Math.max(...health.latencies)),
    loopDelayP99Ms: Math.round(loop.percentile(99) / 1e6),
    loopDelayMaxMs: Math.round(loop.max / 1e6),
  };
}
