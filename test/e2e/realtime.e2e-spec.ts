import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { OpportunityStreamService } from '../../src/realtime/opportunity-stream.service.js';
import { PriceSnapshotService } from '../../src/realtime/price-snapshot.service.js';
import { SseTestClient, rawGet, stalledClient } from '../utils/sse-client.js';
import { startMarketFixture, type MarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

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
  size: { notionalUsdt: number; netProfitPercent: number } | null;
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

/** Every client a test opens is closed after it, even when an assertion fails first. */
const open: SseTestClient[] = [];
const client = (target: string, headers: Record<string, string> = {}) => {
  const c = new SseTestClient(target, [], headers);
  open.push(c);
  return c;
};

describe('realtime streams through the simulator (rules: opportunities, streams)', () => {
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

  it('both streams answer 200 with exactly the API contract headers', async () => {
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
      const sol = { exchange: 'okx', market: 'FUTURES' as const, ticker: 'SOL-USDT', bid: 151.25, ask: 151.3, bidQty: 12, askQty: 7.5 };
      await m.putQuotes([sol]);
      await m.booked([sol]);
      const c = client(url('/v1/realtime/prices'));
      const events = await c.waitFor(3, 5000);
      c.close();
      const gaps = [events[1].at - events[0].at, events[2].at - events[1].at];
      for (const gap of gaps) {
        expect(gap).toBeGreaterThan(700);
        expect(gap).toBeLessThan(1400);
      }
      const entries = JSON.parse(events[2].data) as PriceEntry[];
      const entry = entries.find((e) => e.exchange === 'okx' && e.market === 'FUTURES' && e.ticker === 'SOL-USDT');
      expect(entry).toEqual({
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
    const MID: Record<string, number> = { 'BTC-USDT': 60000, 'ETH-USDT': 3000, 'SOL-USDT': 150 };
    /** Books with no spread for `tickers`, applied before it resolves. */
    const flatten = async (tickers: string[]) => {
      const flat = tickers.flatMap((ticker) =>
        ['binance', 'okx', 'bybit'].map((exchange) => ({ exchange, market: 'SPOT' as const, ticker, bid: MID[ticker] ?? 1, ask: (MID[ticker] ?? 1) + 0.01 })),
      );
      await m.putQuotes(flat);
      await m.booked(flat);
    };
    const tickerOf = (e: { data: string }) => (JSON.parse(e.data) as Opportunity).ticker;
    const spread = (ticker: string, buyAsk: number, sellBid: number) => [
      { exchange: 'binance', market: 'SPOT' as const, ticker, bid: buyAsk - 0.01, ask: buyAsk },
      { exchange: 'okx', market: 'SPOT' as const, ticker, bid: sellBid, ask: sellBid + 0.01 },
      { exchange: 'bybit', market: 'SPOT' as const, ticker, bid: buyAsk - 0.02, ask: sellBid + 0.02 },
    ];

    // The simulator re-sends every quote every 2 s, so an open spread keeps producing events:
    // each test starts from books with no spread.
    beforeEach(async () => {
      await flatten(['BTC-USDT', 'ETH-USDT', 'SOL-USDT']);
    });

    it('emits an opportunity with the event’s fields and formula (rules: opportunities)', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await c.waitOpen();
      // The buy and third legs first, then the sell leg alone: every route opens on that one tick,
      // so the route published is the one whose detection started the debounce (legs arriving on
      // different workers tens of ms apart would otherwise open the best route after it began).
      const [buy, sell, third] = spread('ETH-USDT', 3000, 3009);
      await m.putQuotes([buy, third]);
      await m.booked([buy, third]);
      // Flattening the books passes through brief spreads, and each starts the ticker's debounce;
      // the route under test must start its own.
      const stream = m.app.app.get(OpportunityStreamService);
      await until(() => stream.debouncing('ETH-USDT'), (pending) => !pending, 3000, 20);
      await m.putQuotes([sell]);
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
        // the net spread stream, additive. Simulator fees: binance 0.1 %, okx 0.15 %; networks unknown → withdrawal 1 USD, estimated:
        // 0.3 − 0.1 − 0.15 − 1 ÷ 1000 × 100 = −0.05.
        netProfitPercent: -0.05,
        network: null,
        transferable: false,
        costsEstimated: true,
        openedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        ageMs: expect.any(Number),
        // Sized when both books are held already (the flattening's brief spreads asked for them),
        // else null: 1,000 USDT fill at the best levels, so the net equals the one above.
        size: o.size === null ? null : expect.objectContaining({ notionalUsdt: 1000, buyAvgPrice: 3000, sellAvgPrice: 3009, filledUsdt: 1000, netProfitPercent: -0.05 }),
        // Additive: both venues quote USDT and neither is on-chain.
        quoteConversions: [],
        transferNote: null,
      });
      expect(Number(event.id)).toBeGreaterThan(0);
      expect(o.ageMs).toBe(Date.parse(o.timestamp) - Date.parse(o.openedAt));
      // The debounce fires 200 ms after the detection that opened the route.
      expect(o.ageMs).toBeGreaterThanOrEqual(150);
      expect(o.ageMs).toBeLessThan(1000);
    });

    it('money policy: the emitted figure is decimal, rounded once (0.11, not 0.11000000000000605); a tick exactly at the threshold is none', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await c.waitOpen();
      const before = c.events.length;
      // SOL: (150.15 − 150) ÷ 150 × 100 = 0.1 exactly, at ARBITRAGE_MIN_PROFIT_PERCENT 0.1: not above it.
      // Doubles say 0.1000000000000038, which used to be emitted.
      await m.putQuotes(spread('SOL-USDT', 150, 150.15));
      await m.booked(spread('SOL-USDT', 150, 150.15));
      // ETH: (3003.3 − 3000) ÷ 3000 × 100 = 0.11 exactly (doubles 0.11000000000000605). Its debounce
      // starts after any SOL one would have, with the same period, so a SOL event would come first.
      await m.putQuotes(spread('ETH-USDT', 3000, 3003.3));
      await c.waitForEvent((e) => tickerOf(e) === 'ETH-USDT', 3000, 'the ETH-USDT event');
      c.close();
      const events = c.events.slice(before).map((e) => JSON.parse(e.data) as Opportunity);
      expect(events.map((o) => o.ticker)).not.toContain('SOL-USDT');
      expect(events.find((o) => o.ticker === 'ETH-USDT')).toMatchObject({ buyPrice: 3000, sellPrice: 3003.3, profitPercentAskBid: 0.11 });
    });

    it('a burst of 20 updates of one symbol gives one event, about 200 ms after the first', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await c.waitOpen();
      const before = c.events.length;
      const isSol = (e: { data: string }) => tickerOf(e) === 'SOL-USDT';
      // One control call applies the 20 updates one after another; each is pushed at once.
      const burst = Array.from({ length: 20 }, (_, i) => spread('SOL-USDT', 150, 151 + i * 0.01)[1]);
      const sentAt = Date.now();
      await m.putQuotes([...spread('SOL-USDT', 150, 151), ...burst]);
      await c.waitForEvent(isSol, 3000, 'the SOL-USDT event');
      // The simulator re-sends every quote each second; flattened books make a re-send detect
      // nothing, and a debounce a re-send started meanwhile finds no opportunity when it fires.
      await flatten(['SOL-USDT']);
      // A marker: BTC's debounce starts after any SOL one, with the same period, so once BTC's
      // event is here every SOL event the burst could cause is here too.
      await m.putQuotes(spread('BTC-USDT', 60000, 60300));
      await c.waitForEvent((e) => tickerOf(e) === 'BTC-USDT', 3000, 'the BTC-USDT marker');
      const sol = c.events.slice(before).filter(isSol);
      expect(sol).toHaveLength(1);
      const delay = sol[0].at - sentAt;
      expect(delay).toBeGreaterThanOrEqual(150);
      expect(delay).toBeLessThan(600);
      // It carries the newest state when the debounce fired.
      expect((JSON.parse(sol[0].data) as Opportunity).sellPrice).toBeCloseTo(151.19, 10);
    });

    it('two symbols debounce independently', async () => {
      const c = client(url('/v1/realtime/arbitrage'));
      await c.waitOpen();
      const before = c.events.length;
      await m.putQuotes([...spread('BTC-USDT', 60000, 60200), ...spread('ETH-USDT', 3000, 3012)]);
      const both = (events: { data: string }[]) => ['BTC-USDT', 'ETH-USDT'].every((t) => events.slice(before).some((e) => tickerOf(e) === t));
      await c.waitUntil(both, 3000, 'a BTC-USDT and an ETH-USDT event');
      const tickers = c.events.slice(before).map(tickerOf);
      c.close();
      expect(tickers).toContain('BTC-USDT');
      expect(tickers).toContain('ETH-USDT');
    });

    it('replays after Last-Event-ID without loss or duplicates, then continues live', async () => {
      // A control client stays connected throughout and sees every event live.
      const control = client(url('/v1/realtime/arbitrage'));
      const first = client(url('/v1/realtime/arbitrage'));
      await Promise.all([control.waitOpen(), first.waitOpen()]);
      await m.putQuotes(spread('BTC-USDT', 60000, 60300));
      await first.waitFor(1, 3000);
      const lastSeen = Number(first.events[0].id);
      first.close();
      // Missed while disconnected:
      const after = (ticker: string) => (e: { data: string; id: string }) => Number(e.id) > lastSeen && tickerOf(e) === ticker;
      await m.putQuotes(spread('ETH-USDT', 3000, 3015));
      await control.waitForEvent(after('ETH-USDT'), 3000, 'the missed ETH-USDT event');
      await m.putQuotes(spread('SOL-USDT', 150, 151));
      await control.waitForEvent(after('SOL-USDT'), 3000, 'the missed SOL-USDT event');
      const resumed = client(url('/v1/realtime/arbitrage'), { 'Last-Event-ID': String(lastSeen) });
      await resumed.waitFor(2, 3000);
      await m.putQuotes(spread('ETH-USDT', 3000, 3020));
      const live = (e: { data: string }) => (JSON.parse(e.data) as Opportunity).sellPrice === 3020;
      await resumed.waitForEvent(live, 3000, 'the live ETH-USDT event');
      const lastGot = Number(resumed.events.at(-1)!.id);
      await control.waitForEvent((e) => Number(e.id) >= lastGot, 3000, 'the control at the resumed client\'s last event');
      const got = resumed.events.map((e) => Number(e.id));
      const expected = control.events.map((e) => Number(e.id)).filter((id) => id > lastSeen && id <= got[got.length - 1]);
      expect(got).toEqual(expected);
      const tickers = resumed.events.map((e) => (JSON.parse(e.data) as Opportunity).ticker);
      expect(tickers).toEqual(expect.arrayContaining(['ETH-USDT', 'SOL-USDT']));
      expect(resumed.events.at(-1)!.at).toBeGreaterThan(resumed.events[1].at);
    });
  });

  /** Opens a SOL-USDT spread selling at `sellBid` and answers the id of its event, as `control` received it. */
  const liveMarker = async (control: SseTestClient, sellBid: number): Promise<number> => {
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'SOL-USDT', bid: 149.99, ask: 150 },
      { exchange: 'okx', market: 'SPOT', ticker: 'SOL-USDT', bid: sellBid, ask: sellBid + 0.01 },
    ]);
    const isMarker = (e: { data: string }) => {
      const o = JSON.parse(e.data) as Opportunity;
      return o.ticker === 'SOL-USDT' && o.sellPrice === sellBid;
    };
    const events = await control.waitForEvent(isMarker, 5000, `the SOL-USDT event selling at ${sellBid}`);
    return Number(events.find(isMarker)!.id);
  };

  it('Last-Event-ID far in the past from 200 clients at once: each gets the ring once, in order, then live; a malformed id is none; prices keep their cadence', async () => {
    const control = client(url('/v1/realtime/arbitrage'));
    await control.waitOpen();
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
    // A live marker: a stream writes its replay before anything live, so once every client has the
    // marker, any duplicate or late replayed event would be in its list already.
    const marker = await liveMarker(control, 151.5);
    await Promise.all(resumed.map((c) => c.waitForEvent((e) => Number(e.id) >= marker, 5000, 'the live marker')));
    for (const c of resumed) {
      const ids = c.events.map((e) => Number(e.id));
      // The whole ring (earlier tests' events too), each once, in order, including what the
      // control saw live.
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))).toBe(true);
      expect(ids.filter((id) => id >= (ring[0] ?? 0)).slice(0, ring.length)).toEqual(ring);
    }
    const odd = ['abc', '-1', '1e400', '9'.repeat(40)].map((bad) => client(url('/v1/realtime/arbitrage'), { 'Last-Event-ID': bad }));
    await Promise.all(odd.map((c) => c.waitOpen()));
    const oddMarker = await liveMarker(control, 152);
    await Promise.all(odd.map((c) => c.waitForEvent((e) => Number(e.id) >= oddMarker, 5000, 'the live marker')));
    for (const c of odd) {
      // Treated as no id: no replay, only what happens from now on.
      expect(c.events.filter((e) => ring.includes(Number(e.id)))).toEqual([]);
      expect(c.source.readyState).toBe(1);
    }
    // The 1 s snapshot cadence held while 200 replays were written.
    await prices.waitFor(pricesBefore + 2, 3_000);
  }, 30_000);

  it('after 1,000 streams are opened and closed, no connection, timer or subscription is left', async () => {
    const hub = m.app.app.get(SseHub);
    for (let round = 0; round < 10; round += 1) {
      const path = round % 2 === 0 ? '/v1/realtime/prices' : '/v1/realtime/arbitrage';
      await Promise.all(Array.from({ length: 100 }, () => rawGet(url(path), 50)));
    }
    await until(() => hub.stats().connections, (n) => n === 0, 5000, 20);
    expect(hub.stats()).toEqual({ connections: 0, ips: 0, sweepTimer: false });
    expect(m.app.app.get(PriceSnapshotService).clientCount).toBe(0);
    expect(m.app.app.get(OpportunityStreamService).clientCount).toBe(0);
  });
});
