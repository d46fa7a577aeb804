import net from 'node:net';
import { Redis } from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { IngestLease } from '../../src/redis/ingest-lease.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { freePort, waitFor } from '../utils/instances.js';
import { SseTestClient } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { TEST_REDIS_URL, testRedisPrefix } from '../utils/test-redis.js';
import { sleep } from '../utils/wait.js';

/** A TCP relay to the real Redis that the test can cut and restore, as a network outage would. */
async function redisRelay(port: number) {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const up = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
  };
  const down = async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise((r) => server?.close(r));
    server = null;
  };
  await up();
  return { up, down };
}

const EVENT = { ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx', buyPrice: 3000, sellPrice: 3010 };

/**
 * Scale-out: an API instance that loses Redis says so on /health (503 with the reason), its
 * streams send the `streams` rule's missing-data event, and it recovers by itself when Redis returns, delivering
 * the opportunity events published meanwhile (they wait on the Redis Stream).
 */
describe('an API instance through a Redis outage', () => {
  const redis = testRedisPrefix();
  let relay: Awaited<ReturnType<typeof redisRelay>>;
  let t: TestApp;
  let direct: Redis;
  const clients: SseTestClient[] = [];
  /** What the ingest role does for each event (opportunity-relay.ts), written straight to Redis. */
  const publish = (id: number) =>
    direct.xadd(`${redis.prefix}opportunities`, 'MAXLEN', '~', 10000, `${id}-0`, 'at', String(Date.now()), 'event', JSON.stringify(EVENT));

  beforeAll(async () => {
    const port = await freePort();
    relay = await redisRelay(port);
    direct = new Redis(TEST_REDIS_URL);
    t = await startTestApp({ ROLE: 'api', REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: redis.prefix });
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await t?.close();
    await relay?.down();
    direct?.disconnect();
    await redis.drop();
  });

  it('reports the outage, sends market-data-missing on its streams, and resumes with nothing lost', async () => {
    const arbitrage = new SseTestClient(`${t.baseUrl}/v1/realtime/arbitrage`, ['market-data-missing']);
    const prices = new SseTestClient(`${t.baseUrl}/v1/realtime/prices`, ['market-data-missing']);
    clients.push(arbitrage, prices);
    await Promise.all([arbitrage.opened, prices.opened]);
    await publish(Date.now());
    await arbitrage.waitFor(1, 5000);
    await request(t.baseUrl).get('/health').expect(200);

    await relay.down();
    await waitFor(async () => (await request(t.baseUrl).get('/health')).status === 503, 5000, '/health stayed 200');
    const res = await request(t.baseUrl).get('/health').expect(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/^redis does not answer/) as string });
    const missingSince = arbitrage.events.length;
    await waitFor(() => arbitrage.events.slice(missingSince).filter((e) => e.type === 'market-data-missing').length >= 2, 5000, 'no missing-data events on the opportunity stream');
    await waitFor(() => prices.events.some((e) => e.type === 'market-data-missing'), 5000, 'no missing-data events on the price stream');
    expect(arbitrage.events.find((e) => e.type === 'market-data-missing')?.data).toBe('{"message":"market data not found"}');
    // The ingest role goes on publishing during the outage.
    const during = Date.now() + 1;
    await publish(during);

    await relay.up();
    await waitFor(async () => (await request(t.baseUrl).get('/health')).status === 200, 10_000, '/health did not recover');
    await waitFor(() => arbitrage.events.some((e) => e.type === 'message' && Number(e.id) === during), 10_000, 'the event published during the outage never came');
    const after = Date.now() + 2;
    await publish(after);
    await waitFor(() => arbitrage.events.some((e) => Number(e.id) === after), 5000, 'live events did not resume');
    const messageIds = arbitrage.events.filter((e) => e.type === 'message').map((e) => Number(e.id));
    expect(messageIds).toHaveLength(3);
    expect(new Set(messageIds).size).toBe(3);
    // And the missing-data events stop once Redis answers again.
    const settled = arbitrage.events.length;
    await sleep(2500); // time: no market-data-missing event may come for over two of its 1 s periods
    expect(arbitrage.events.slice(settled).filter((e) => e.type === 'market-data-missing')).toEqual([]);
  }, 60_000);
});

describe('the ingest process through a Redis outage', () => {
  const redis = testRedisPrefix();
  let relay: Awaited<ReturnType<typeof redisRelay>>;
  let m: MarketFixture;
  const samples = async () =>
    Number((await m.app.app.get(DataSource).query<{ n: string }[]>('SELECT count(DISTINCT time) AS n FROM market_samples'))[0].n);

  beforeAll(async () => {
    const port = await freePort();
    relay = await redisRelay(port);
    m = await startMarketFixture(['binance', 'okx'], ['ETH-USDT'], {
      ROLE: 'ingest', REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: redis.prefix, SAMPLE_INTERVAL_MS: '200',
    });
    await m.waitConnected();
  });
  afterAll(async () => {
    await m?.close();
    await relay?.down();
    await redis.drop();
  });

  it('keeps recording samples to the database while Redis is away, and holds on to its lease', async () => {
    await waitFor(async () => (await samples()) > 0, 10_000, 'no samples recorded');
    await relay.down();
    const before = await samples();
    // Rounds every 200 ms go on: 5 more with Redis away.
    await waitFor(async () => (await samples()) >= before + 5, 10_000, 'recording stopped with Redis');
    await relay.up();
    const direct = new Redis(TEST_REDIS_URL);
    try {
      // Still this process's lease once Redis answers again, and it still runs the jobs.
      const lease = m.app.app.get(IngestLease);
      expect(lease.holds).toBe(true);
      expect(await direct.get(`${redis.prefix}ingest:lease`)).toBe(lease.holderId);
    } finally {
      direct.disconnect();
    }
  }, 60_000);
});
