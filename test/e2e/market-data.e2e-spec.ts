import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGES, type ExchangeName, type Market } from '../../src/market-model/exchanges.js';
import { FundingRateBook } from '../../src/market-data/funding-rate-book.js';
import { MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until as untilEvery } from '../utils/wait.js';

interface ExchangeHealth {
  connected: boolean;
  lastMessageAt: string | null;
  reconnects: number;
  markets: number;
}

/** Polls every 25 ms. */
const until = <T>(read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs: number): Promise<T> => untilEvery(read, ok, timeoutMs, 25);

/**
 * The whole service against the exchange simulator: the unmodified ccxt pro clients of all five
 * exchanges, real websockets on loopback. Small silence timeout and backoff keep it fast.
 */
describe('market data through the exchange simulator', () => {
  let sim: RunningSimulator;
  let app: TestApp;
  let book: QuoteBook;

  const health = async (): Promise<Record<string, ExchangeHealth>> => {
    const res = await fetch(`${app.baseUrl}/health/market`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { exchanges: Record<string, ExchangeHealth> }).exchanges;
  };
  const control = async (method: string, path: string, body: unknown): Promise<void> => {
    const res = await fetch(`${sim.url}${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const allConnected = (h: Record<string, ExchangeHealth>): boolean =>
    DEFAULT_EXCHANGES.every((e) => h[e]?.connected === true);

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['BTC', 'ETH', 'SOL'] });
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      MARKET_SILENCE_TIMEOUT_MS: '3000',
      MARKET_RECONNECT_BASE_MS: '50',
      MARKET_RECONNECT_MAX_MS: '400',
      SAMPLE_INTERVAL_MS: '300',
    });
    book = app.app.get(QuoteBook);
  });

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  it('shows all five exchanges connected on /health/market with their markets', async () => {
    // A feed counts as connected once its socket is up; its first quote may land a moment later.
    const h = await until(health, (r) => allConnected(r) && DEFAULT_EXCHANGES.every((e) => r[e]?.lastMessageAt != null), 20_000);
    for (const e of DEFAULT_EXCHANGES) {
      expect(h[e]).toMatchObject({ connected: true, markets: 6 });
      expect(Date.parse(h[e]?.lastMessageAt ?? '')).toBeGreaterThan(Date.now() - 10_000);
    }
    expect((await fetch(`${app.baseUrl}/health`)).status).toBe(200);
  });

  it('delivers a pushed quote to the quote book within 1 s, spot and perpetual, on every exchange', async () => {
    const quotes = DEFAULT_EXCHANGES.flatMap((exchange) =>
      (['SPOT', 'FUTURES'] as const).map((market, i) => ({
        exchange, market, ticker: 'SOL-USDT', bid: 150.25 + i, ask: 150.5 + i, bidQty: 3, askQty: 4,
      })),
    );
    const pushedAt = Date.now();
    await control('PUT', '/_sim/quotes', quotes);
    for (const q of quotes) {
      const got = await until(
        () => book.get(q.exchange, q.market, 'SOL-USDT'),
        (t) => t?.bid === q.bid && t.ask === q.ask,
        1_000 - (Date.now() - pushedAt),
      );
      expect(got).toMatchObject({ bidQty: 3, askQty: 4 });
    }
    expect(Date.now() - pushedAt).toBeLessThan(1_000);
  });

  const pushAndExpect = async (exchange: ExchangeName, market: Market, bid: number): Promise<void> => {
    await control('PUT', '/_sim/quotes', [{ exchange, market, ticker: 'ETH-USDT', bid, ask: bid + 0.5 }]);
    await until(() => book.get(exchange, market, 'ETH-USDT')?.bid, (b) => b === bid, 5_000);
  };

  it('reconnects by itself after the simulator drops every socket', async () => {
    const before = await health();
    await control('POST', '/_sim/drop', {});
    const after = await until(
      health,
      (h) => allConnected(h) && DEFAULT_EXCHANGES.every((e) => (h[e]?.reconnects ?? 0) > (before[e]?.reconnects ?? 0)),
      10_000,
    );
    expect(after.binance?.connected).toBe(true);
    for (const e of DEFAULT_EXCHANGES) await pushAndExpect(e, 'FUTURES', 2000 + e.length);
  });

  it('detects a connection that stays open but sends nothing, and replaces it', async () => {
    const before = (await health()).okx?.reconnects ?? 0;
    await control('POST', '/_sim/silence', { exchange: 'okx', silent: true });
    await until(health, (h) => h.okx?.connected === false && (h.okx?.reconnects ?? 0) > before, 8_000);
    expect((await health()).binance?.connected).toBe(true);
    await control('POST', '/_sim/silence', { exchange: 'okx', silent: false });
    await until(health, allConnected, 8_000);
    await pushAndExpect('okx', 'SPOT', 2500);
  });

  it('replaces a connection that stops answering pings and subscriptions (stall)', async () => {
    const before = (await health()).gate?.reconnects ?? 0;
    await control('POST', '/_sim/stall', { exchange: 'gate', stalled: true });
    await until(health, (h) => h.gate?.connected === false && (h.gate?.reconnects ?? 0) > before, 8_000);
    await control('POST', '/_sim/stall', { exchange: 'gate', stalled: false });
    await until(health, allConnected, 8_000);
    await pushAndExpect('gate', 'FUTURES', 2600);
  });

  it('records spot+futures samples of the live quotes (rules: recorders)', async () => {
    const repo = app.app.get(MarketSampleRepository);
    const since = new Date(Date.now() - 2_000);
    const latest = await until(
      () => repo.latestSample('BTC-USDT', 'okx', since),
      (s) => s !== null,
      5_000,
    );
    const spot = book.get('okx', 'SPOT', 'BTC-USDT');
    // The funding collector also runs against the simulator; samples carry its latest rate.
    const fundingRate = app.app.get(FundingRateBook).rate('okx', 'BTC-USDT');
    expect(latest).toMatchObject({ ticker: 'BTC-USDT', exchange: 'okx', fundingRate });
    expect(latest?.spotBid).toBeGreaterThan(0);
    expect(latest?.futuresAsk).toBeGreaterThan(0);
    expect(spot).toBeDefined();
  });
});
