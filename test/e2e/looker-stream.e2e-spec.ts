import http from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { LookerStreamsService } from '../../src/lookers/looker-streams.service.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { SseTestClient, rawGet } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until as untilEvery } from '../utils/wait.js';

interface PriceEvent {
  ticker: string;
  exchange: string;
  market: string;
  ask: number | null;
  bid: number | null;
  volume: number | null;
  stale: boolean;
  updatedAt: string | null;
}

interface Chunk {
  at: number;
  events: PriceEvent[];
}

const INTERVAL_MS = 200;
/** The shared `until`, polling every 20 ms with a 5 s default. */
const until = <T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> => untilEvery(read, ok, timeoutMs, 20);

/** A plain HTTP SSE reader that keeps every received chunk with its time: "flushed together" is visible. */
function openRaw(url: string): { chunks: Chunk[]; ended: Promise<void>; close(): void } {
  const chunks: Chunk[] = [];
  let req: http.ClientRequest | undefined;
  const ended = new Promise<void>((resolve) => {
    req = http.get(url, { headers: { Accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? 'null') as PriceEvent);
        if (events.length > 0) chunks.push({ at: Date.now(), events });
      });
      res.on('end', resolve);
      res.on('close', resolve);
    });
    req.on('error', () => resolve());
  });
  return { chunks, ended, close: () => req?.destroy() };
}

const lastEvent = (client: SseTestClient, ticker: string): PriceEvent | undefined =>
  client.events
    .map((e) => JSON.parse(e.data) as PriceEvent)
    .filter((e) => e.ticker === ticker)
    .at(-1);

/**
 * GET /v1/lookers/{id}/stream (rules: lookers, streams, quotes) against the whole app fed by the
 * exchange simulator over real websockets, read by real SSE clients.
 */
describe('looker stream with live feeds (simulator)', () => {
  let fx: MarketFixture;
  let base: string;
  let streams: LookerStreamsService;
  let hub: SseHub;

  const createLooker = async (body: Record<string, unknown>): Promise<string> =>
    (await request(base).post('/v1/lookers').send({ email: 'stream@example.com', ...body }).expect(201)).body.id as string;
  const streamUrl = (id: string) => `${base}/v1/lookers/${id}/stream`;

  beforeAll(async () => {
    fx = await startMarketFixture(['binance'], ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'], {
      LOOKER_STREAM_INTERVAL_MS: String(INTERVAL_MS),
      MARKET_VOLUME_REFRESH_MS: '1000',
      SAMPLE_INTERVAL_MS: '0',
    });
    base = fx.app.baseUrl;
    streams = fx.app.app.get(LookerStreamsService);
    hub = fx.app.app.get(SseHub);
    await fx.waitConnected();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('events carry exactly the pushed quotes, per the `lookers` rule, on the looker’s exchange and market', async () => {
    await fx.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 61000.5, ask: 61001.5, volume: 123456789 },
      { exchange: 'binance', market: 'FUTURES', ticker: 'BTC-USDT', bid: 61050.5, ask: 61052.5, volume: 987654321 },
      { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 3000.25, ask: 3000.75, volume: 5555555 },
    ]);
    const spot = new SseTestClient(streamUrl(await createLooker({ cryptos: ['BTCUSDT', 'eth-usdt'], exchange: 'binance' })));
    const futures = new SseTestClient(streamUrl(await createLooker({ cryptos: ['BTCUSDT'], market: 'FUTURES' })));
    try {
      // Volume comes from the 24 h REST refresh (may lag up to 60 s, here 1 s), prices from the feed.
      const btc = await until(() => lastEvent(spot, 'BTC-USDT'), (e) => e?.volume === 123456789 && e.bid === 61000.5);
      expect(btc).toEqual({
        ticker: 'BTC-USDT', exchange: 'binance', market: 'SPOT', ask: 61001.5, bid: 61000.5, volume: 123456789,
        stale: false, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(Date.now() - Date.parse(btc?.updatedAt ?? '')).toBeLessThan(10_000);
      const eth = await until(() => lastEvent(spot, 'ETH-USDT'), (e) => e?.volume === 5555555 && e.ask === 3000.75);
      expect(eth).toMatchObject({ exchange: 'binance', market: 'SPOT', bid: 3000.25, ask: 3000.75, stale: false });
      const perp = await until(() => lastEvent(futures, 'BTC-USDT'), (e) => e?.volume === 987654321 && e.ask === 61052.5);
      expect(perp).toMatchObject({ exchange: 'binance', market: 'FUTURES', bid: 61050.5, ask: 61052.5, stale: false });
    } finally {
      spot.close();
      futures.close();
    }
  });

  it('a new quote shows up within one cycle', async () => {
    const client = new SseTestClient(streamUrl(await createLooker({ cryptos: ['SOLUSDT'] })));
    try {
      await client.waitFor(1);
      await fx.putQuotes([{ exchange: 'binance', market: 'SPOT', ticker: 'SOL-USDT', bid: 151.11, ask: 151.12 }]);
      const pushedAt = Date.now();
      await until(() => lastEvent(client, 'SOL-USDT'), (e) => e?.bid === 151.11 && e.ask === 151.12, 3000);
      expect(Date.now() - pushedAt).toBeLessThan(INTERVAL_MS + 800);
    } finally {
      client.close();
    }
  });

  it('every cycle: one event per crypto in looker order, all in ONE chunk; first cycle at once, then at the cadence', async () => {
    const order = ['SOL-USDT', 'BTC-USDT', 'XRP-USDT', 'ETH-USDT'];
    const raw = openRaw(streamUrl(await createLooker({ cryptos: ['SOLUSDT', 'BTCUSDT', 'XRPUSDT', 'ETHUSDT'] })));
    const openedAt = Date.now();
    try {
      await until(() => raw.chunks.length, (n) => n >= 6, 5000);
      expect((raw.chunks[0]?.at ?? Infinity) - openedAt).toBeLessThan(INTERVAL_MS);
      for (const chunk of raw.chunks) expect(chunk.events.map((e) => e.ticker)).toEqual(order);
      const gaps = raw.chunks.slice(2, 6).map((c, i) => c.at - (raw.chunks[i + 1]?.at ?? 0));
      for (const gap of gaps) {
        expect(gap).toBeGreaterThan(INTERVAL_MS * 0.5);
        expect(gap).toBeLessThan(INTERVAL_MS * 2.5);
      }
    } finally {
      raw.close();
    }
  });

  it('the same cycle reaches every client of a looker with identical bytes', async () => {
    const id = await createLooker({ cryptos: ['BTCUSDT', 'ETHUSDT'] });
    const a = openRaw(streamUrl(id));
    const b = openRaw(streamUrl(id));
    try {
      await until(() => Math.min(a.chunks.length, b.chunks.length), (n) => n >= 4);
      expect(streams.stats()).toMatchObject({ lookers: 1, clients: 2, clockSubscribers: 1 });
      // The beat's chunk of b and the chunk a received at the same moment carry the same events.
      const beat = b.chunks.at(-1);
      const twin = a.chunks.find((c) => Math.abs(c.at - (beat?.at ?? 0)) < INTERVAL_MS / 2);
      expect(JSON.stringify(twin?.events)).toBe(JSON.stringify(beat?.events));
    } finally {
      a.close();
      b.close();
    }
  });

  it('the `lookers` rule: a crypto never quoted has null ask, bid, volume and updatedAt and is stale; the others are live', async () => {
    // XRP is not in SYMBOLS, so no feed ever quotes it; NOTLISTED is not listed at all.
    const client = new SseTestClient(streamUrl(await createLooker({ cryptos: ['XRPUSDT', 'NOTLISTEDUSDT', 'BTCUSDT'] })));
    try {
      await client.waitFor(3);
      for (const ticker of ['XRP-USDT', 'NOTLISTED-USDT']) {
        expect(lastEvent(client, ticker)).toEqual({
          ticker, exchange: 'binance', market: 'SPOT', ask: null, bid: null, volume: null, stale: true, updatedAt: null,
        });
      }
      expect(lastEvent(client, 'BTC-USDT')).toMatchObject({ stale: false, bid: expect.any(Number) });
    } finally {
      client.close();
    }
  });

  it('stale turns true 10 s after the last tick when the simulator pauses that market, and recovers', async () => {
    const client = new SseTestClient(streamUrl(await createLooker({ cryptos: ['ETHUSDT', 'BTCUSDT'] })));
    try {
      await until(() => lastEvent(client, 'ETH-USDT'), (e) => e?.stale === false);
      await fx.simPost('/_sim/pause', { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', paused: true });
      const pausedAt = Date.now();
      const stale = await until(() => lastEvent(client, 'ETH-USDT'), (e) => e?.stale === true, 15_000);
      const lastTickAt = Date.parse(stale?.updatedAt ?? '');
      // The `staleness` rule: stale once the last tick is older than 10 s (the simulator re-sends at least every 2 s).
      expect(Date.now() - lastTickAt).toBeGreaterThanOrEqual(10_000);
      expect(Date.now() - lastTickAt).toBeLessThan(10_000 + INTERVAL_MS + 1000);
      expect(Date.now() - pausedAt).toBeGreaterThan(7_000);
      expect(stale).toMatchObject({ bid: expect.any(Number), ask: expect.any(Number) });
      expect(lastEvent(client, 'BTC-USDT')?.stale).toBe(false);
      await fx.simPost('/_sim/pause', { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', paused: false });
      await fx.putQuotes([{ exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 3100.5, ask: 3101 }]);
      await until(() => lastEvent(client, 'ETH-USDT'), (e) => e?.stale === false && e.bid === 3100.5, 3000);
    } finally {
      client.close();
    }
  }, 30_000);

  it('a PATCH changes the cryptos of open streams; a DELETE ends them', async () => {
    const id = await createLooker({ cryptos: ['BTCUSDT'] });
    const raw = openRaw(streamUrl(id));
    await until(() => raw.chunks.length, (n) => n >= 1);
    await request(base).patch(`/v1/lookers/${id}`).query({ email: 'stream@example.com' }).send({ cryptos: ['ETHUSDT', 'SOLUSDT'] }).expect(200);
    await until(() => raw.chunks.at(-1)?.events.map((e) => e.ticker).join(), (t) => t === 'ETH-USDT,SOL-USDT');
    await request(base).delete(`/v1/lookers/${id}`).query({ email: 'stream@example.com' }).expect(204);
    await raw.ended;
    await until(() => streams.stats().lookers, (n) => n === 0);
    await request(base).get(`/v1/lookers/${id}/stream`).expect(404);
  });

  it('work stops when clients leave: no channel, no clock subscriber, no timer, no hub connection', async () => {
    const [one, two] = [await createLooker({ cryptos: ['BTCUSDT'] }), await createLooker({ cryptos: ['ETHUSDT'] })];
    const clients = [new SseTestClient(streamUrl(one)), new SseTestClient(streamUrl(one)), new SseTestClient(streamUrl(two))];
    await Promise.all(clients.map((c) => c.waitFor(2)));
    expect(streams.stats()).toEqual({ lookers: 2, clients: 3, clockSubscribers: 2, clockRunning: true });
    expect(hub.stats().connections).toBe(3);
    clients[0]?.close();
    await until(() => streams.stats().clients, (n) => n === 2);
    expect(streams.stats()).toMatchObject({ lookers: 2, clockSubscribers: 2 });
    clients.slice(1).forEach((c) => c.close());
    await until(() => streams.stats(), (s) => s.clients === 0);
    expect(streams.stats()).toEqual({ lookers: 0, clients: 0, clockSubscribers: 0, clockRunning: false });
    await until(() => hub.stats(), (s) => s.connections === 0);
    expect(hub.stats()).toEqual({ connections: 0, ips: 0, sweepTimer: false });
  });

  it('answers with the API contract section 6 headers', async () => {
    const res = await rawGet(streamUrl(await createLooker({ cryptos: ['BTCUSDT'] })), 300);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['connection']).toBe('keep-alive');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.body).toMatch(/^data: \{"ticker":"BTC-USDT",.*\}\n\n/);
  });

  it('a looker without cryptos opens and sends no price event', async () => {
    const res = await rawGet(streamUrl(await createLooker({})), 3 * INTERVAL_MS);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('data:');
  });

  describe('errors are JSON, before any stream opens (rules: errors, streams)', () => {
    it.each([
      ['/v1/lookers/%20/stream', 400, 'id parameter is required'],
      ['/v1/lookers//stream', 400, 'id parameter is required'],
      // The same request after a proxy merged its slashes.
      ['/v1/lookers/stream', 400, 'id parameter is required'],
      ['/v1/lookers/not-a-uuid/stream', 404, 'looker not found'],
      ['/v1/lookers/00000000-0000-4000-8000-000000000000/stream', 404, 'looker not found'],
    ])('%s -> %i %s', async (path, status, message) => {
      const res = await rawGet(`${base}${path}`, 2000);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ statusCode: status, message, error: status === 400 ? 'Bad Request' : 'Not Found' });
      expect(hub.stats().connections).toBe(0);
    });
  });
});

describe('looker stream without a realtime feed (ENABLED_WEBSOCKET off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ENABLED_WEBSOCKET: '0', LOOKER_STREAM_INTERVAL_MS: String(INTERVAL_MS) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every event is stale, with null prices, and the stream keeps its cadence', async () => {
    const { id } = (await request(t.baseUrl).post('/v1/lookers').send({ email: 'off@example.com', cryptos: ['BTCUSDT', 'ETHUSDT'] }).expect(201)).body;
    const client = new SseTestClient(`${t.baseUrl}/v1/lookers/${id}/stream`);
    try {
      const events = (await client.waitFor(6)).map((e) => JSON.parse(e.data) as PriceEvent);
      expect(events.map((e) => e.ticker)).toEqual(['BTC-USDT', 'ETH-USDT', 'BTC-USDT', 'ETH-USDT', 'BTC-USDT', 'ETH-USDT']);
      for (const e of events) expect(e).toMatchObject({ stale: true, ask: null, bid: null, volume: null, updatedAt: null });
    } finally {
      client.close();
    }
  });
});
