import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/**
 * okx announces a service upgrade with notice `64008` 60 s before it closes the connection. The
 * strict simulator plays it (`POST /_sim/upgrade`); the service re-dials every noticed
 * connection at once, long before the close, and every market quotes on the new sockets.
 */
const BASES = ['BTC', 'ETH', 'SOL', 'XRP'];

interface OkxHealth {
  connected: boolean;
  reconnects: number;
  markets: number;
}

describe('okx upgrade notice (64008): the service re-dials at once', () => {
  let sim: RunningSimulator;
  let app: TestApp;
  let book: QuoteBook;

  const okx = async (): Promise<OkxHealth> => ((await (await fetch(`${app.baseUrl}/health/market`)).json()) as { exchanges: { okx: OkxHealth } }).exchanges.okx;
  const control = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${sim.url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: BASES, strict: true });
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      EXCHANGES: 'okx',
      MARKET_SIMULATOR_URL: sim.url,
      MARKET_RECONNECT_BASE_MS: '10000',
      MARKET_RECONNECT_MAX_MS: '20000',
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      DEPTH_ENABLED: '0',
    });
    book = app.app.get(QuoteBook);
    await until(okx, (h) => h.connected && h.markets === BASES.length * 2, 30_000);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  it('only okx announces upgrades', async () => {
    const res = await control<{ message: string }>('POST', '/_sim/upgrade', { exchange: 'gate' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('only okx');
  });

  it('every noticed socket is replaced within a second or two (not after the 60 s close, nor after the reconnect delay of 5 s or more), and every market quotes on it', async () => {
    const before = await okx();
    const noticedAt = Date.now();
    const res = await control<{ notified: number; closesInMs: number }>('POST', '/_sim/upgrade', { exchange: 'okx' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ closesInMs: 60_000 });
    // One socket per market type here.
    expect(res.body.notified).toBe(2);
    await until(okx, (h) => h.reconnects >= before.reconnects + res.body.notified && h.connected, 2_500);
    const stale = (): string[] =>
      (['SPOT', 'FUTURES'] as const).flatMap((market) => BASES.filter((b) => (book.get('okx', market, `${b}-USDT`)?.receivedAt ?? 0) <= noticedAt + 100).map((b) => `${market}:${b}`));
    await until(stale, (s) => s.length === 0, 5_000);
    const v = await control<{ total: number; recent: unknown[] }>('GET', '/_sim/violations');
    expect(v.body.total, JSON.stringify(v.body.recent)).toBe(0);
  }, 30_000);
});
