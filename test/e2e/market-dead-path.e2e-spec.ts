import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES, type ExchangeName } from '../../src/market-model/exchanges.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { DEFAULT_SIM_SYMBOLS } from '../../src/simulator/instruments.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { type BlackHoleProxy, type ProxiedConnection, startBlackHoleProxy } from '../utils/black-hole-proxy.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { VENUE_CONTRACTS } from '../utils/venue-contracts.js';
import { until } from '../utils/wait.js';
import { venueOf } from '../../src/venues/registry.js';

/** The venues whose markets the USDT universe names as they list them (a USDC venue lists `BASE-USDC`: its own specs cover it). */
const USDT_VENUES = EXCHANGE_NAMES.filter((e) => (venueOf(e).quoteCurrency ?? 'USDT') === 'USDT');

/**
 * A dead network path (bytes stop both ways, TCP stays open, as behind a dropped NAT entry) on
 * each exchange's websockets: a proxy between the service and the strict simulator black-holes
 * them. Each socket is destroyed once silent for MARKET_SILENCE_TIMEOUT_MS (no close handshake
 * to wait for) and re-dialed after the first reconnect delay, so its markets are replaced within
 * silence timeout + first reconnect delay + 2 s, and every one of them quotes again.
 */
const BASES = [...DEFAULT_SIM_SYMBOLS];
const MARKETS = BASES.length * 2;
const SILENCE_MS = 2_000;
/** The first reconnect waits between half of this and all of it. */
const RECONNECT_BASE_MS = 400;
const REDIAL_BOUND_MS = SILENCE_MS + RECONNECT_BASE_MS + 2_000;


interface ExchangeHealth {
  connected: boolean;
  markets: number;
}

describe('dead network paths: a black-holed socket is destroyed on silence and re-dialed at once', () => {
  let sim: RunningSimulator;
  let proxy: BlackHoleProxy;
  let app: TestApp;
  let book: QuoteBook;

  const health = async (): Promise<Record<ExchangeName, ExchangeHealth>> => {
    const res = await fetch(`${app.baseUrl}/health/market`);
    return ((await res.json()) as { exchanges: Record<ExchangeName, ExchangeHealth> }).exchanges;
  };
  const violations = async (): Promise<{ total: number; recent: unknown[] }> =>
    (await (await fetch(`${sim.url}/_sim/violations`)).json()) as { total: number; recent: unknown[] };
  const sockets = (exchange: ExchangeName, since = 0): ProxiedConnection[] =>
    proxy.connections.filter((c) => c.websocket && c.openedAt >= since && VENUE_CONTRACTS[exchange].dialRequest.test(c.requestLine));

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: BASES, strict: true });
    proxy = await startBlackHoleProxy(sim.url);
    app = await startTestApp({
      // Every venue of the registry, not only the default five.
      EXCHANGES: 'all',
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: proxy.url,
      MARKET_SILENCE_TIMEOUT_MS: String(SILENCE_MS),
      MARKET_RECONNECT_BASE_MS: String(RECONNECT_BASE_MS),
      MARKET_RECONNECT_MAX_MS: '2000',
      DEPTH_ENABLED: '0',
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
    });
    book = app.app.get(QuoteBook);
    await until(health, (h) => USDT_VENUES.every((e) => h[e]?.connected && h[e]?.markets === MARKETS), 60_000);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await sim?.close();
  });

  it('okx is dialled on port 443 by default (ccxt says 8443), rewritten to the simulator', () => {
    const okx = sockets('okx');
    expect(okx.length).toBeGreaterThanOrEqual(2);
    for (const c of okx) expect(c.requestLine).toMatch(/^GET \/ws\.okx\.com\/ws\/v5\/public /);
  });

  it.each(USDT_VENUES)('%s: re-dialed within silence + first reconnect delay + 2 s, and every market of its sockets quotes again', async (exchange) => {
    // Every open websocket of the exchange (one per market type here) goes dead at once.
    const blackHoledAt = Date.now();
    const dead = proxy.blackHole((c) => c.websocket && VENUE_CONTRACTS[exchange].dialRequest.test(c.requestLine));
    expect(dead.length).toBeGreaterThanOrEqual(2);

    const redials = await until(() => sockets(exchange, blackHoledAt), (s) => s.length >= dead.length, REDIAL_BOUND_MS + 5_000, 20);
    const redialMs = Math.max(...redials.slice(0, dead.length).map((c) => c.openedAt)) - blackHoledAt;
    expect(redialMs).toBeGreaterThanOrEqual(SILENCE_MS - 1_100);
    expect(redialMs).toBeLessThanOrEqual(REDIAL_BOUND_MS);
    // The dead sockets were destroyed by the service, not left to a close handshake.
    expect(dead.every((c) => !c.open)).toBe(true);

    const redialedAt = blackHoledAt + redialMs;
    const stale = (): string[] =>
      (['SPOT', 'FUTURES'] as const).flatMap((market) =>
        BASES.filter((base) => (book.get(exchange, market, `${base}-USDT`)?.receivedAt ?? 0) <= redialedAt).map((base) => `${market}:${base}`),
      );
    await until(stale, (s) => s.length === 0, 10_000);
    expect((await violations()).total).toBe(0);
  }, 30_000);
});
