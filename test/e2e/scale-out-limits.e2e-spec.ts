import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { testRedisPrefix } from '../utils/test-redis.js';
import { sleep, until } from '../utils/wait.js';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';

const LIMITED = { statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' };
const route = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0.5 };

/**
 * Scale-out: two instances sharing one Redis count the `rate-limits` rule arbitrage limit and the per-IP
 * stream cap together, with the same headers and bodies as a single process.
 */
describe('limits across instances (Redis)', () => {
  const redis = testRedisPrefix();
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { TRUST_PROXY: '1', SSE_MAX_PER_IP: '2', ...redis.env };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis.drop();
  });

  const stats = (t: TestApp, ip: string) =>
    request(t.baseUrl).get('/v1/opportunity-history/stats').query(route).set('X-Forwarded-For', ip);

  it('30 requests alternating between the instances pass with one falling Remaining; the 31st is 429 on either', async () => {
    for (let i = 0; i < 30; i += 1) {
      const res = await stats(i % 2 === 0 ? a : b, '203.0.113.9').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('30');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(29 - i));
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    for (const t of [a, b]) {
      const res = await stats(t, '203.0.113.9').expect(429);
      expect(res.body).toEqual(LIMITED);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-ratelimit-limit']).toBe('30');
    }
    // Another client has its own counter.
    expect((await stats(b, '198.51.100.9').expect(200)).headers['x-ratelimit-remaining']).toBe('29');
  });

  it('the stream cap counts streams on both instances; a closed stream frees its slot', async () => {
    const ip = { 'X-Forwarded-For': '203.0.113.10' };
    const first = await rawGet(`${a.baseUrl}/v1/realtime/prices`, 300, ip);
    expect(first.status).toBe(200);
    // rawGet hangs up after 300 ms; hold two streams open meanwhile from two instances.
    const held = [rawGet(`${a.baseUrl}/v1/realtime/prices`, 1500, ip), rawGet(`${b.baseUrl}/v1/realtime/prices`, 1500, ip)];
    const open = (): number => a.app.get(SseHub).stats().connections + b.app.get(SseHub).stats().connections;
    await until(open, (n) => n === 2, 5000, 10); // both held streams are open before the third asks
    const third = await rawGet(`${a.baseUrl}/v1/realtime/prices`, 300, ip);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toMatchObject({ statusCode: 429, message: 'too many open streams' });
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    await sleep(300); // time: the held streams' slots are released after their hang-up
    expect((await rawGet(`${b.baseUrl}/v1/realtime/prices`, 200, ip)).status).toBe(200);
  });

  it('/health reports Redis up', async () => {
    const res = await request(a.baseUrl).get('/health').expect(200);
    expect(res.body.details).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' } });
  });
});

describe('an instance whose Redis does not answer (scale-out)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '1', REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: 'test:down:' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('/health is 503 naming Redis and the reason', async () => {
    const res = await request(t.baseUrl).get('/health').expect(503);
    expect(res.body).toEqual({ statusCode: 503, message: expect.stringMatching(/^redis does not answer: .*ECONNREFUSED/) as string, error: 'Service Unavailable' });
  });

  it('still limits the arbitrage group, per instance, with the `rate-limits` rule headers', async () => {
    const res = await request(t.baseUrl).get('/v1/opportunity-history/stats').query(route).set('X-Forwarded-For', '203.0.113.11').expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('29');
  });
});
