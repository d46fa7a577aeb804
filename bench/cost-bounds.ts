import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';
import { row } from '../test/e2e/opportunity-history.fixtures.js';

const HEADER =
  'id,status,strategy,asset,buy_exchange,sell_exchange,quantity,short_quantity,entry_buy_price,entry_sell_price,' +
  'exit_buy_price,exit_sell_price,trading_fees,withdrawal_fees,funding,fees_estimated,gross_pnl,net_pnl,net_pnl_pct,' +
  'opened_at,closed_at,source,external_id,notes';
const PARALLEL = 50;
const HEALTH_P99_MS = 100;
const ROUTE = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };

/**
 * Every endpoint whose work a client sizes, at the largest size it may ask for: the widest
 * period (from=1500), the most rows (limit=500, the whole export), the longest look-back
 * (days=90) and the widest day range. Issue 18: one summary with from=1500-01-01 held the event
 * loop for 7-11 s, so /health and every stream froze while a handful of them ran.
 */
const WORST_CASES: [string, 'GET' | 'POST', string, unknown?][] = [
  ['summary, an e-mail with no operation, from=1500', 'GET', '/v1/journal/summary?email=nobody@example.com&from=1500-01-01T00:00:00Z'],
  ['summary, a trader with operations, from=1500', 'GET', '/v1/journal/summary?email=heavy@example.com&from=1500-01-01T00:00:00Z'],
  ['operations, limit=500', 'GET', '/v1/journal/operations?email=heavy@example.com&limit=500'],
  ['export of every operation', 'GET', '/v1/journal/export.csv?email=heavy@example.com'],
  ['stats over 90 days', 'GET', '/v1/opportunity-history/stats?ticker=BTC-USDT&buy=binance&sell=okx&days=90&threshold=0'],
  ['backtest over 90 days', 'POST', '/v1/opportunity-history/backtest', { ...ROUTE, days: 90, threshold: 0 }],
  ['crossing counts over 400 years', 'GET', '/v1/arbitrage/future/crossing-counts?from=1700-01-01&to=2100-12-31'],
  ['funding rates, limit=500', 'GET', '/v1/funding-rates?limit=500'],
];

/** One request on its own connection; the body is read and dropped (the client must cost ~nothing). */
function call(baseUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, {
      method,
      agent: false,
      headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {},
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

describe('cost bounds: 50 worst-case requests of every client-sized endpoint at once; /health stays fast (issue 18)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '1000000', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    // 300 closed operations over 300 São Paulo days, the oldest in 1900.
    const day = 86_400_000;
    const rows = Array.from({ length: 300 }, (_, i) => {
      const opened = new Date(Date.parse('1900-01-01T12:00:00Z') + i * 151 * day).toISOString();
      const closed = new Date(Date.parse(opened) + 3_600_000).toISOString();
      return `,,other,BTC,binance,okx,1,0,100,,,${100 + (i % 7) - 3},0.1,0,0,false,,,,${opened},${closed},,e${i},`;
    });
    await request(t.baseUrl).post('/v1/journal/import').query({ email: 'heavy@example.com' }).set('Content-Type', 'text/csv')
      .send([HEADER, ...rows].join('\n')).expect(200, { created: 300, updated: 0, errors: [] });
    // 2,000 samples of the route in the last days.
    const now = Date.now();
    const samples = Array.from({ length: 2000 }, (_, i) => row(now - (i + 1) * 60_000, (i % 10) / 10));
    await request(t.baseUrl).post('/v1/opportunity-history/import').send(samples).expect(200, { imported: 2000 });
  });
  afterAll(async () => {
    await t.close();
  });

  it(`${PARALLEL} of each in parallel all succeed, /health p99 < ${HEALTH_P99_MS} ms meanwhile`, async () => {
    await call(t.baseUrl, 'GET', '/health'); // warm
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let running = true;
    const heavy = Promise.all(
      WORST_CASES.flatMap(([label, method, path, body]) =>
        Array.from({ length: PARALLEL }, () => call(t.baseUrl, method, path, body).then((r) => ({ label, ...r }))),
      ),
    ).finally(() => {
      running = false;
    });
    const health: number[] = [];
    while (running) {
      const { status, ms } = await call(t.baseUrl, 'GET', '/health');
      expect(status).toBe(200);
      health.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const results = await heavy;
    loop.disable();

    const failed = results.filter((r) => r.status !== 200).map((r) => `${r.label}: ${r.status}`);
    expect(failed).toEqual([]);
    const figures = {
      requests: results.length,
      slowestMs: Math.round(Math.max(...results.map((r) => r.ms))),
      healthSamples: health.length,
      healthP99Ms: Math.round(percentile(health, 99)),
      loopDelayP99Ms: Math.round(loop.percentile(99) / 1e6),
      loopDelayMaxMs: Math.round(loop.max / 1e6),
    };
    console.log(JSON.stringify(figures));
    expect(health.length).toBeGreaterThanOrEqual(5);
    expect(figures.healthP99Ms).toBeLessThan(HEALTH_P99_MS);
  }, 120_000);
});
