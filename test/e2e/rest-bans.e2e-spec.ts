import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import { IN_FLIGHT_GRACE_MS } from '../../src/simulator/strict-mode.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/**
 * Each venue's ban rule, played by the strict simulator (`POST /_sim/rest-limit` answers the
 * venue's next REST call as over its limit) against the service's REST gate, with the real ccxt
 * clients: binance 429 with Retry-After, bybit 403 "access too frequent" and 10 minutes
 * without calls, okx 429 `50011`, gate 429 and bitget 429 without Retry-After (their limit's
 * window: 2 s, 10 s, 1 s). The service makes no call to the venue inside the ban, and
 * /health/market shows `restBannedUntil` for it. REST runs here without the feeds: the funding
 * collector calls every venue every 300 ms.
 */
const BANS: readonly [ExchangeName, string, number][] = [
  // binance: Retry-After is what is left of its 1-minute window, here all of it.
  ['binance', '429 -1003 with Retry-After', 59_000],
  ['bybit', '403 "access too frequent"', 600_000],
  ['okx', '429 50011', 2_000],
  ['gate', '429 TOO_MANY_REQUESTS', 10_000],
  ['bitget', '429 "429"', 1_000],
];

/** Bans this short are waited out: the first call after it must come at or after its end. */
const WAIT_OUT_MS = 3_000;

interface Health {
  exchanges: Record<ExchangeName, { restBannedUntil: string | null }>;
}

describe('REST bans as each venue states them: no call inside the ban, restBannedUntil on /health/market', () => {
  let sim: RunningSimulator;
  let app: TestApp;

  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sim.url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const calls = (): Promise<Record<ExchangeName, number[]>> => control('GET', '/_sim/rest-calls');
  const health = async (): Promise<Health> => (await (await fetch(`${app.baseUrl}/health/market`)).json()) as Health;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['BTC', 'ETH', 'SOL'], strict: true });
    app = await startTestApp({
      MARKET_SIMULATOR_URL: sim.url,
      FUNDING_REFRESH_MS: '300',
      // The venue's rule decides each ban, not the backoff.
      MARKET_RECONNECT_BASE_MS: '100',
      MARKET_RECONNECT_MAX_MS: '200',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  it.each(BANS)('%s: after its %s no call for at least %i ms, and restBannedUntil shows it', async (exchange, _answer, ruleMs) => {
    await until(calls, (c) => c[exchange].length > 0, 20_000);
    const before = (await calls())[exchange].length;
    await control('POST', '/_sim/rest-limit', { exchange });
    // The call the venue answered over its limit.
    const limitedAt = (await until(calls, (c) => c[exchange].length > before, 10_000))[exchange][before] ?? 0;
    const h = await until(health, (x) => x.exchanges[exchange].restBannedUntil !== null, 10_000);
    const bannedUntil = Date.parse(h.exchanges[exchange].restBannedUntil ?? '');
    expect(bannedUntil - limitedAt).toBeGreaterThanOrEqual(ruleMs);
    // The venue's rule, not more (a 429 is not binance's 2-minute 418 ban).
    expect(bannedUntil - limitedAt).toBeLessThan(ruleMs + 3_000);

    // Meanwhile the other venues are called on (the collector's own cadence): evidence of time passing.
    const horizon = Math.min(bannedUntil, limitedAt + WAIT_OUT_MS);
    const other = exchange === 'okx' ? 'gate' : 'okx';
    await until(calls, (c) => (c[other].at(-1) ?? 0) >= horizon, 20_000);
    if (bannedUntil - limitedAt <= WAIT_OUT_MS) await until(calls, (c) => (c[exchange].at(-1) ?? 0) >= bannedUntil, 15_000);

    // Calls sent before the service read the answer may land within the venue's in-flight grace.
    const inside = (await calls())[exchange].filter((t) => t > limitedAt + IN_FLIGHT_GRACE_MS && t < bannedUntil);
    expect(inside).toEqual([]);
    const v = await control<{ byExchange: Record<string, Record<string, number>> }>('GET', '/_sim/violations');
    expect(v.byExchange[exchange]?.['rest-ignored-retry-after'] ?? 0).toBe(0);
  }, 60_000);
});
