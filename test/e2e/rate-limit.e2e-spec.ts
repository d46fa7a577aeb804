import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { sleep } from '../utils/wait.js';

// The group's routes that exist today are the three opportunity-history ones; funding rates and
// crossing counts join the same counter through @ArbitrageRateLimit() (checked via OpenAPI below).
const GROUP_PREFIXES = ['/v1/funding-rates', '/v1/opportunity-history/', '/v1/arbitrage/'];
const LIMITED = { statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' };
const route = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0.5 };

describe('arbitrage route group rate limit (rules: rate-limits, limits)', () => {
  describe('30 per minute per client IP, one counter for the whole group', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ TRUST_PROXY: '1' });
    });
    afterAll(async () => {
      await t.close();
    });

    const calls = [
      (ip: string) => request(t.baseUrl).get('/v1/opportunity-history/stats').query(route).set('X-Forwarded-For', ip),
      (ip: string) => request(t.baseUrl).post('/v1/opportunity-history/backtest').send(route).set('X-Forwarded-For', ip),
      (ip: string) => request(t.baseUrl).post('/v1/opportunity-history/import').send([]).set('X-Forwarded-For', ip),
    ];

    it('30 requests spread over three routes pass, the 31st is 429 with the `errors` rule body and Retry-After', async () => {
      for (let i = 0; i < 30; i += 1) {
        const res = await calls[i % 3]('203.0.113.7').expect(200);
        expect(res.headers['x-ratelimit-limit']).toBe('30');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(29 - i));
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      }
      for (const call of calls) {
        const res = await call('203.0.113.7').expect(429);
        expect(res.body).toEqual(LIMITED);
        const retryAfter = Number(res.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(res.headers['x-ratelimit-remaining']).toBe('0');
      }
    });

    it('a route outside the group is not limited for the same client', async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await request(t.baseUrl)
          .get('/v1/favorite-cryptos')
          .query({ email: 'limited@example.com' })
          .set('X-Forwarded-For', '203.0.113.7')
          .expect(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('another client IP has its own counter', async () => {
      const res = await calls[0]('198.51.100.20').expect(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('29');
    });

    it('OpenAPI documents the 429 on every route of the group, and only there', async () => {
      const doc = (await request(t.baseUrl).get('/docs-json').expect(200)).body as {
        paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
      };
      const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));
      const inGroup = operations.filter(({ path }) => GROUP_PREFIXES.some((prefix) => path.startsWith(prefix)));
      expect(inGroup.length).toBeGreaterThanOrEqual(3);
      for (const { op } of inGroup) expect(op.responses['429']?.description).toMatch(/^rate limit exceeded/);
      const outside = operations.filter(({ path }) => !GROUP_PREFIXES.some((prefix) => path.startsWith(prefix)));
      for (const { op } of outside) expect(op.responses['429']?.description ?? '').not.toMatch(/^rate limit exceeded/);
    });
  });

  describe('configured limit and window, socket address without TRUST_PROXY', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '2', ARBITRAGE_RATE_TTL_MS: '1000' });
    });
    afterAll(async () => {
      await t.close();
    });

    const stats = (forwardedFor?: string) => {
      const req = request(t.baseUrl).get('/v1/opportunity-history/stats').query(route);
      return forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req;
    };

    it('X-Forwarded-For is ignored, and requests pass again once the window has passed', async () => {
      await stats().expect(200);
      await stats('192.0.2.1').expect(200);
      // Without TRUST_PROXY every request above came from the socket address 127.0.0.1.
      const limited = await stats('192.0.2.2').expect(429);
      expect(limited.body).toEqual(LIMITED);
      expect(limited.headers['retry-after']).toBe('1');
      // Invalid requests count too: the limit is checked before validation.
      await sleep(1100); // time: the 1 s rate-limit window must pass
      const again = await request(t.baseUrl).get('/v1/opportunity-history/stats').query({ ...route, days: 0 }).expect(400);
      expect(again.headers['x-ratelimit-remaining']).toBe('1');
    });
  });
});
