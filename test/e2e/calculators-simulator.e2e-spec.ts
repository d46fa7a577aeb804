import 'reflect-metadata';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { SseTestClient } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/**
 * The calculator fed the whole way: simulator quotes → ccxt websocket feeds → quote book →
 * sample recorder → market_samples → process and stream. Shows the `quotes` rule end to end: the spot BID and
 * the futures ASK the exchange quoted are the prices the PNL uses.
 */
describe('calculator fed by the exchange simulator (rules: calculator-market-data, recorders, operating)', () => {
  let sim: RunningSimulator;
  let t: TestApp;
  const email = 'sim-trader@example.com';

  const putQuotes = async (spot: [number, number], futures: [number, number]): Promise<void> => {
    const quotes = [
      { exchange: 'bybit', market: 'SPOT', ticker: 'ETH-USDT', bid: spot[0], ask: spot[1] },
      { exchange: 'bybit', market: 'FUTURES', ticker: 'ETH-USDT', bid: futures[0], ask: futures[1] },
    ];
    const res = await fetch(`${sim.url}/_sim/quotes`, { method: 'PUT', body: JSON.stringify(quotes), headers: { 'content-type': 'application/json' } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  /** Polls process until the recorded sample carries `spotBid`. */
  const processUntil = async (spotBid: number, timeoutMs = 15_000) => {
    const post = async () => {
      const res = await request(t.baseUrl).post('/v1/calculators/process').send({ email, ticker: 'ETH-USDT', exchange: 'bybit' });
      return { status: res.status, body: res.body as Record<string, unknown> };
    };
    const res = await until(post, (r) => r.status === 200 && r.body.currentSpotPrice === spotBid, timeoutMs);
    return res.body;
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['ETH'], walk: false });
    t = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      EXCHANGES: 'bybit',
      SYMBOLS: 'ETH-USDT',
      SAMPLE_INTERVAL_MS: '200',
      CALCULATOR_PROCESS_CACHE_MS: '300',
      CALCULATOR_STREAM_CACHE_MS: '300',
    });
    await request(t.baseUrl)
      .post('/v1/calculators')
      .send({ email, ticker: 'ETHUSDT', entrySpotValue: 3000, entryShortValue: 3012, entrySpotQty: 2, entryFuturesQty: 1.5 })
      .expect(200);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it('process values the position at the quoted spot BID and futures ASK', async () => {
    await putQuotes([3050, 3051], [3059, 3060]);
    const pnl = await processUntil(3050);
    // spot (3050 − 3000) × 2 = 100; futures (3012 − 3060) × 1.5 = −72; pnl 28
    // entry total 6000 + 4518 = 10518; 28 ÷ 10518 × 100 = 0.26621030614…
    // current spread 3060 − 3050 = 10; 10 ÷ 3050 × 100 = 0.32786885245…
    expect(pnl).toMatchObject({ exchange: 'bybit', currentSpotPrice: 3050, currentFuturePrice: 3060, currentSpread: 10, pnl: 28, isProfitable: true });
    expect(pnl.pnlPercentage).toBe(0.26621031);
    expect(pnl.currentSpreadPercentage).toBe(0.32786885);
  });

  it('the stream follows the market as the exchange moves', async () => {
    const client = new SseTestClient(`${t.baseUrl}/v1/calculators/stream?email=${email}&ticker=ETH-USDT&exchange=bybit`, ['market-data-missing']);
    try {
      await client.waitFor(1, 5000);
      await putQuotes([2990, 2991], [3001, 3002]);
      const latest = (events: { data: string }[]) => JSON.parse(events.at(-1)?.data ?? '{}') as { currentSpotPrice?: number };
      await client.waitUntil((events) => latest(events).currentSpotPrice === 2990, 10_000, 'the stream to show the new quote');
      // spot (2990 − 3000) × 2 = −20; futures (3012 − 3002) × 1.5 = 15; pnl −5
      expect(JSON.parse(client.events.at(-1)?.data ?? '{}')).toMatchObject({ currentFuturePrice: 3002, pnl: -5, isProfitable: false });
    } finally {
      client.close();
    }
  });
});
