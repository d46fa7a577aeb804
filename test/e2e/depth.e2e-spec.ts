import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseTestClient } from '../utils/sse-client.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

/**
 * Order-book depth through the real simulator (PUT /_sim/books, GET /_sim/depth-subscriptions)
 * and the ingest workers' ccxt depth clients. A route opening makes the service subscribe both books and its
 * event carries `size` within 2 s; the route closing unsubscribes them after DEPTH_GRACE_MS.
 */
type Level = [number, number];
interface Size { notionalUsdt: number; buyAvgPrice: number | null; sellAvgPrice: number | null; filledUsdt: number; netProfitPercent: number | null; maxSizeUsdt: number; depthAgeMs: number }
interface Event { ticker: string; buyExchange: string; sellExchange: string; size: Size | null }

const EXCHANGES = ['binance', 'okx', 'bybit'];
const GRACE_MS = 1500;

describe('order-book depth through the simulator', () => {
  let m: MarketFixture;
  const sim = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${m.sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  const book = (exchange: string, bids: Level[], asks: Level[]) => ({ exchange, market: 'SPOT', ticker: 'ETH-USDT', bids, asks });
  /** Flat: no route open. bybit's book spans every price the test sets, so no route of it ever opens. */
  const flat = () => sim('PUT', '/_sim/books', [
    ...['binance', 'okx'].map((e) => book(e, [[3000, 5], [2999, 5]], [[3000.1, 5], [3000.2, 5]])),
    book('bybit', [[2990, 5]], [[3040, 5]]),
  ]);
  interface DepthSubscription { market: string; ticker: string; channel: string; connections: number }
  /** The simulator's depth subscriptions of ETH-USDT, `exchange channel` each. */
  const subscriptions = async (): Promise<string[]> => {
    const all = (await sim('GET', '/_sim/depth-subscriptions')) as Record<string, DepthSubscription[]>;
    return Object.entries(all).flatMap(([exchange, subs]) => subs.filter((s) => s.ticker === 'ETH-USDT').map((s) => `${exchange} ${s.market} ${s.channel}`)).sort();
  };

  beforeAll(async () => {
    m = await startMarketFixture(EXCHANGES, ['ETH-USDT', 'BTC-USDT'], { SAMPLE_INTERVAL_MS: '0', DEPTH_GRACE_MS: String(GRACE_MS), SSE_MAX_PER_IP: '100' });
    await m.waitConnected();
    await flat();
    // Routes the simulator's first quotes opened are closed now: their books go after the grace period.
    await until(subscriptions, (s) => s.length === 0, GRACE_MS + 5000, 50);
  });
  afterAll(async () => {
    await m?.close(); // throws on any strict-mode violation
  });

  it('a route opening subscribes both books; its event carries size within 2 s; closing unsubscribes after the grace period', async () => {
    const client = new SseTestClient(`${m.app.baseUrl}/v1/realtime/arbitrage?size=500`);
    try {
      // binance asks 0.1 at 3000 then 3001; okx bids 0.1 at 3030 then 3020: the route opens (1 % gross).
      const opened = Date.now();
      await sim('PUT', '/_sim/books', [
        book('binance', [[2999, 5]], [[3000, 0.1], [3001, 5]]),
        book('okx', [[3030, 0.1], [3020, 5]], [[3031, 5]]),
      ]);
      const sized = await until(() => client.events.map((e) => JSON.parse(e.data) as Event),
        (events) => events.some((e) => e.size !== null && e.buyExchange === 'binance' && e.sellExchange === 'okx'), 2000, 25);
      expect(Date.now() - opened).toBeLessThan(2000);
      const size = sized.find((e) => e.size !== null)?.size as Size;
      // 500 USDT: 0.1 at 3000 (300) + 200 ÷ 3001 at 3001, Q = 500.1 ÷ 3001 bought, buyAvg = 500 ÷ Q
      // = 1,500,500 ÷ 500.1; sold 0.1 at 3030 (303) + 200 ÷ 3001 at 3020, sellAvg = 1,513,303 ÷ 500.1.
      expect(size.notionalUsdt).toBe(500);
      expect(size.filledUsdt).toBe(500);
      expect(size.buyAvgPrice).toBe(3000.399920015997);
      expect(size.sellAvgPrice).toBe(3026.000799840032);
      expect(size.depthAgeMs).toBeLessThan(5000);
      // The channels ccxt picks: binance's diff stream (seeded by REST), okx's full book.
      expect(await subscriptions()).toEqual(expect.arrayContaining(['binance SPOT depth@100ms', 'okx SPOT books']));
      const held = await request(m.app.baseUrl).get('/v1/market/books').query({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' }).expect(200);
      expect(held.body.bids.slice(0, 2)).toEqual([[3030, 0.1], [3020, 5]]);
      expect((await request(m.app.baseUrl).get('/health/market').expect(200)).body.books).toMatchObject({ binance: 1, okx: 1 });
      // The book updates counted per exchange (the workers report each second).
      const depthMessages = (text: string, exchange: string): number =>
        Number(new RegExp(`^market_depth_messages_total\\{exchange="${exchange}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      await until(async () => (await request(m.app.baseUrl).get('/metrics').expect(200)).text,
        (text) => depthMessages(text, 'binance') > 0 && depthMessages(text, 'okx') > 0, 3000, 50);

      // Closing: flat books; the books stay for the grace period, then are unsubscribed.
      const closed = Date.now();
      await flat();
      await until(subscriptions, (s) => s.length === 0, GRACE_MS + 5000, 50);
      expect(Date.now() - closed).toBeGreaterThanOrEqual(GRACE_MS - 100);
      expect((await request(m.app.baseUrl).get('/health/market').expect(200)).body.books).toMatchObject({ binance: 0, okx: 0 });
    } finally {
      client.close();
    }
  });

  it('a market whose route is closed is answered on request (spot and perpetual), then held; a market the venue does not list is 404', async () => {
    const spot = await request(m.app.baseUrl).get('/v1/market/books').query({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' }).expect(200);
    expect(spot.body).toMatchObject({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' });
    expect(spot.body.bids.slice(0, 2)).toEqual([[3000, 5], [2999, 5]]);
    expect(spot.body.asks.slice(0, 2)).toEqual([[3000.1, 5], [3000.2, 5]]);
    const perp = await request(m.app.baseUrl).get('/v1/market/books').query({ exchange: 'bybit', market: 'FUTURES', ticker: 'BTC-USDT' }).expect(200);
    expect(perp.body).toMatchObject({ exchange: 'bybit', market: 'FUTURES', ticker: 'BTC-USDT' });
    expect(perp.body.bids.length).toBeGreaterThan(0);
    expect(perp.body.bids[0][0]).toBeLessThan(perp.body.asks[0][0]);
    // Held: the simulator keeps both subscriptions, and the service answers the next request from them.
    expect(await subscriptions()).toEqual(['okx SPOT books']);
    const all = (await sim('GET', '/_sim/depth-subscriptions')) as Record<string, DepthSubscription[]>;
    expect(all.bybit?.some((s) => s.market === 'FUTURES' && s.ticker === 'BTC-USDT')).toBe(true);
    const again = await request(m.app.baseUrl).get('/v1/market/books').query({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' }).expect(200);
    expect(again.body.bids.slice(0, 2)).toEqual([[3000, 5], [2999, 5]]);
    const unlisted = await request(m.app.baseUrl).get('/v1/market/books').query({ exchange: 'okx', market: 'SPOT', ticker: 'NOPE-USDT' }).expect(404);
    expect(unlisted.body.message).toMatch(/^book not held: okx lists no SPOT market NOPE-USDT; okx holds \d+ books?: /);
    expect(unlisted.body.message).toContain('SPOT ETH-USDT');
  });
});
