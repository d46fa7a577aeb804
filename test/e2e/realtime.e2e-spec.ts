import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { OpportunityStreamService } from '../../src/realtime/opportunity-stream.service.js';
import { PriceSnapshotService } from '../../src/realtime/price-snapshot.service.js';
import { SseTestClient, rawGet, stalledClient } from '../utils/sse-client.js';
import { startMarketFixture, type MarketFixture } from '../utils/market-fixture.js';

interface Opportunity {
  ticker: string;
  buyExchange: string;
  sellExchange: string;
  buyPrice: number;
  sellPrice: number;
  profitPercentAskBid: number;
  volume: number | null;
  timestamp: string;
  netProfitPercent: number;
  network: string | null;
  transferable: boolean;
  costsEstimated: boolean;
  openedAt: string;
  ageMs: number;
}

interface PriceEntry {
  ticker: string;
  exchange: string;
  market: string;
  ask: number;
  bid: number;
  askQty: number;
  bidQty: number;
  volume: number | null;
  updatedAt: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every client a test opens is closed after it, even when an assertion fails first. */
const open: SseTestClient[] = [];
const client = (target: string, headers: Record<string, string> = {}) => {
  const c = new SseTestClient(target, [], headers);
  open.push(c);
  return c;
};

describe('realtime streams through the simulator (SPEC 4.4, 2.6, 2.7, 6; D4, D6)', () => {
  let m: MarketFixture;
  let url: (path: string) => string;

  beforeAll(async () => {
    m = await startMarketFixture(['binance', 'okx', 'bybit'], ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'], {
      SSE_MAX_PER_IP: '2000',
      SAMPLE_INTERVAL_MS: '0',
    });
    url = (path) => `${m.app.baseUrl}${path}`;
    await m.waitConnected();
  });
  afterEach(() => {
    open.splice(0).forEach((c) => c.close());
  });
  afterAll(async () => {
    await m?.close();
  });

  it('both streams answer 200 with exactly the SPEC headers', async () => {
    for (const path of ['/v1/realtime/arbitrage', '/v1/realtime/prices']) {
      const res = await rawGet(url(path), 300, { Origin: 'https://app.example.com' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['connection']).toBe('keep-alive');
      expect(res.headers['x-accel-buffering']).toBe('no');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['content-encoding']).toBeUndefined();
    }
  });

  describe('price snapshot', () => {
    it('sends every second an array with the pushed quotes, fields per 2.7 plus market', async () => {
      await m.putQuotes([
        { exchange: 'okx', market: 'FUTURES', ticker: 'SOL-USDT', bid: 151.25, ask: 151.3, bidQty: 12, askQty: 7.5 },
      ]);
      await sleep(300);
      const c = client(url('/v1/realtime/prices'));
      const events = await c.waitFor(3, 5000);
      c.close();
      const gaps = [events[1].at - events[0].at, events[2].at - events[1].at];
      for (const gap of gaps) {
        expect(gap).toBeGreaterThan(700);
        expect(gap).toBeLessThan(1400);
      }
      const entries = JSON.parse(events[2].data) as PriceEntry[];
      const sol = entries.find((e) => e.exchange === 'okx' && e.market === 'FUTURES' && e.ticker === 'SOL-USDT');
      expect(sol).toEqual({
        ticker: 'SOL-USDT',
        exchange: 'okx',
        market: 'FUTURES',
        bid: 151.25,
        ask: 151.3,
        bidQty: 12,
        askQty: 7.5,
        volume: expect.any(Number),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      // Every exchange with a live connection, both markets.
      const keys = new Set(entries.map((e) => `${e.exchange}:${e.market}`));
      for (const ex of ['binance', 'okx', 'bybit']) {
        expect(keys).toContain(`${ex}:SPOT`);
        expect(keys).toContain(`${ex}:FUTURES`);
      }
    });

    it('a client that never reads does not change another client’s 1 s cadence', async () => {
      const stalled = await Promise.all([1, 2, 3].map(() => stalledClient(url('/v1/realtime/prices'))));
      const c = client(url('/v1/realtime/prices'));
      const events = await c.waitFor(4, 6000);
      c.close();
      const span = events[3].at - events[0].at;
      expect(span).toBeGreaterThan(2500);
      expect(span).toBeLessThan(3600);
      stalled.forEach((s) => s.destroy());
    });
  });

  describe('arbitrage opportunities', () => {
    const spread = (ticker: string, buyAsk: number, sellBid: number) => [
      { exchange: 'binance', market: 'SPOT' as const, ticker, bid: buyAsk - 0.01, ask: buyAsk },
      { exchange: 'okx', market: 'SPOT' as const, ticker, bid: sellBid, ask: sellBid + 0.01 },
      { exchange: 'bybit', market: 'SPOT' as const, ticker, bid: buyAsk - 0.02, ask: sellBid + 0.02 },
    ];

    // The simulator re-sends every quote every 2 s, so an open spread keeps producing events:
    // each test starts from books with no spread.
    beforeEach(async () => {
      const flat = [['BTC-USDT', 60000], ['ETH-USDT', 3000], ['SOL-USDT', 150]] as const;
      await m.putQuotes(
        flat.flatMap(([ticker, mid]) =>
          ['binance', 'okx', 'bybit'].map((exchange) => ({ exchange, market: 'SPOT' as const, ticker, bid: mid, ask: mid + 0.01 })),
        ),
      );
      await sleep(300);
    });

    it('emits an opportunity with the 2.6 fields and the D6 formula', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await sleep(200);
      await m.putQuotes(spread('ETH-USDT', 3000, 3009));
      const [event] = await c.waitFor(1, 3000);
      c.close();
      const o = JSON.parse(event.data) as Opportunity;
      expect(o).toEqual({
        ticker: 'ETH-USDT',
        buyExchange: 'binance',
        sellExchange: 'okx',
        buyPrice: 3000,
        sellPrice: 3009,
        profitPercentAskBid: 0.3, // 9 ÷ 3000 × 100
        volume: expect.any(Number),
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        // Issue 21, additive. Simulator fees: binance 0.1 %, okx 0.15 %; networks unknown → withdrawal 1 USD, estimated:
        // 0.3 − 0.1 − 0.15 − 1 ÷ 1000 × 100 = −0.05.
        netProfitPercent: -0.05,
        network: null,
        transferable: false,
        costsEstimated: true,
        openedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        ageMs: expect.any(Number),
      });
      expect(Number(event.id)).toBeGreaterThan(0);
      expect(o.ageMs).toBe(Date.parse(o.timestamp) - Date.parse(o.openedAt));
      // The debounce fires 200 ms after the detection that opened the route.
      expect(o.ageMs).toBeGreaterThanOrEqual(150);
      expect(o.ageMs).toBeLessThan(1000);
    });

    it('money policy: the emitted figure is decimal, rounded once (0.11, not 0.11000000000000605); a tick exactly at the threshold is none', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await sleep(200);
      const before = c.events.length;
      // SOL: (150.15 − 150) ÷ 150 × 100 = 0.1 exactly, at ARBITRAGE_MIN_PROFIT_PERCENT 0.1: not above it.
      // Doubles say 0.1000000000000038, which used to be emitted.
      await m.putQuotes(spread('SOL-USDT', 150, 150.15));
      await sleep(400);
      // ETH: (3003.3 − 3000) ÷ 3000 × 100 = 0.11 exactly (doubles 0.11000000000000605).
      await m.putQuotes(spread('ETH-USDT', 3000, 3003.3));
      await c.waitFor(before + 1, 3000);
      await sleep(100);
      c.close();
      const events = c.events.slice(before).map((e) => JSON.parse(e.data) as Opportunity);
      expect(events.map((o) => o.ticker)).not.toContain('SOL-USDT');
      expect(events.find((o) => o.ticker === 'ETH-USDT')).toMatchObject({ buyPrice: 3000, sellPrice: 3003.3, profitPercentAskBid: 0.11 });
    });

    it('a burst of 20 updates of one symbol gives one event, about 200 ms after the first', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await sleep(300);
      const before = c.events.length;
      // One control call applies the 20 updates one after another; each is pushed at once.
      const burst = Array.from({ length: 20 }, (_, i) => spread('SOL-USDT', 150, 151 + i * 0.01)[1]);
      const sentAt = Date.now();
      await m.putQuotes([...spread('SOL-USDT', 150, 151), ...burst]);
      await sleep(700);
      const sol = c.events.slice(before).filter((e) => (JSON.parse(e.data) as Opportunity).ticker === 'SOL-USDT');
      // The burst gives ONE event. The simulator re-sends every quote each second, which may start
      // a later debounce: any such event comes at least one debounce period after the first.
      expect(sol.length).toBeGreaterThanOrEqual(1);
      for (const later of sol.slice(1)) expect(later.at - sol[0].at).toBeGreaterThanOrEqual(190);
      const delay = sol[0].at - sentAt;
      expect(delay).toBeGreaterThanOrEqual(150);
      expect(delay).toBeLessThan(600);
      // It carries the newest state when the debounce fired.
      expect((JSON.parse(sol[0].data) as Opportunity).sellPrice).toBeCloseTo(151.19, 10);
    });

    it('two symbols debounce independently', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await sleep(300);
      const before = c.events.length;
      await m.putQuotes([...spread('BTC-USDT', 60000, 60200), ...spread('ETH-USDT', 3000, 3012)]);
      await sleep(600);
      const tickers = c.events.slice(before).map((e) => (JSON.parse(e.data) as Opportunity).ticker);
      c.close();
      expect(tickers).toContain('BTC-USDT');
      expect(tickers).toContain('ETH-USDT');
    });

    it('replays after Last-Event-ID without loss or duplicates, then continues live', async () => {
      // A control client stays connected throughout and sees every event live.
      const control = client(url('/v1/realtime/arbitrage'));
      const first = client(url('/v1/realtime/arbitrage'));
      await sleep(200);
      await m.putQuotes(spread('BTC-USDT', 60000, 60300));
      await first.waitFor(1, 3000);
      const lastSeen = Number(first.events[0].id);
      first.close();
      // Missed while disconnected:
      await m.putQuotes(spread('ETH-USDT', 3000, 3015));
      await sleep(400);
      await m.putQuotes(spread('SOL-USDT', 150, 151));
      await sleep(400);
      const resumed = client(url('/v1/realtime/arbitrage'), { 'Last-Event-ID': String(lastSeen) });
      await resumed.waitFor(2, 3000);
      await m.putQuotes(spread('ETH-USDT', 3000, 3020));
      await sleep(600);
      const got = resumed.events.map((e) => Number(e.id));
      const expected = control.events.map((e) => Number(e.id)).filter((id) => id > lastSeen && id <= got[got.length - 1]);
      expect(got).toEqual(expected);
      const tickers = resumed.events.map((e) => (JSON.parse(e.data) as Opportunity).ticker);
      expect(tickers).toEqual(expect.arrayContaining(['ETH-USDT', 'SOL-USDT']));
      expect(resumed.events.at(-1)!.at).toBeGreaterThan(resumed.events[1].at);
    });
  });

  it('Last-Event-ID far in the past from 200 clients at once: each gets the ring once, in order, then live; a malformed id is none; prices keep their cadence (issue 18)', async () => {
    const control = client(url('/v1/realtime/arbitrage'));
    await sleep(200);
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 59_999, ask: 60_000 },
      { exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 60_300, ask: 60_301 },
    ]);
    await control.waitFor(1, 3000);
    const ring = control.events.map((e) => Number(e.id));
    const prices = client(url('/v1/realtime/prices'));
    await prices.waitFor(1, 3000);
    const pricesBefore = prices.events.length;
    const resumed = Array.from({ length: 200 }, () => client(url('/v1/realtime/arbitrage'), { 'Last-Event-ID': '1' }));
    await Promise.all(resumed.map((c) => c.waitFor(ring.length, 5000)));
    await sleep(300);
    for (const c of resumed) {
      const ids = c.events.map((e) => Number(e.id));
      // The whole ring (earlier tests' events too), each once, in order, including what the
      // control saw live.
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))).toBe(true);
      expect(ids.filter((id) => id >= (ring[0] ?? 0)).slice(0, ring.length)).toEqual(ring);
    }
    for (const bad of ['abc', '-1', '1e400', '9'.repeat(40)]) {
      const odd = client(url('/v1/realtime/arbitrage'), { 'Last-Event-ID': bad });
      await sleep(300);
      // Treated as no id: no replay, only what happens from now on.
      expect(odd.events.filter((e) => ring.includes(Number(e.id)))).toEqual([]);
      expect(odd.source.readyState).toBe(1);
    }
    await sleep(2_200);
    // The 1 s snapshot cadence held while 200 replays were written.
    expect(prices.events.length - pricesBefore).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('after 1,000 streams are opened and closed, no connection, timer or subscription is left', async () => {
    const hub = m.app.app.get(SseHub);
    for (let round = 0; round < 10; round += 1) {
      const path = round % 2 === 0 ? '/v1/realtime/prices' : '/v1/realtime/arbitrage';
      await Promise.all(Array.from({ length: 100 }, () => rawGet(url(path), 50)));
    }
    const end = Date.now() + 5000;
    while (hub.stats().connections > 0 && Date.now() < end) await sleep(20);
    expect(hub.stats()).toEqual({ connections: 0, ips: 0, sweepTimer: false });
    expect(m.app.app.get(PriceSnapshotService).clientCount).toBe(0);
    expect(m.app.app.get(OpportunityStreamService).clientCount).toBe(0);
  });
});
