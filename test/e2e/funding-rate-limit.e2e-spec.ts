import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * The `rate-limits` rule with funding rates in the group: one counter per client IP across /v1/funding-rates,
 * /v1/opportunity-history/ and /v1/arbitrage/ (30 per minute by default).
 */
const LIMITED = { statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' };
const route = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0.5 };

describe('GET /v1/funding-rates in the arbitrage rate-limit group', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const calls = [
    (ip: string) => request(t.baseUrl).get('/v1/funding-rates').set('X-Forwarded-For', ip),
    (ip: string) => request(t.baseUrl).get('/v1/opportunity-history/stats').query(route).set('X-Forwarded-For', ip),
    (ip: string) => request(t.baseUrl).get('/v1/arbitrage/future/crossing-counts').set('X-Forwarded-For', ip),
  ];

  it('30 spread over funding rates, opportunity history and crossing counts pass; the 31st is 429 on funding rates', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await calls[i % 3]('203.0.113.9');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(29 - i));
    }
    const res = await calls[0]('203.0.113.9').expect(429);
    expect(res.body).toEqual(LIMITED);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The history and the cross-exchange spreads share the same group and counter.
    const spreads = await request(t.baseUrl).get('/v1/funding-rates/spreads').set('X-Forwarded-For', '203.0.113.9').expect(429);
    expect(spreads.body).toEqual(LIMITED);
    const history = await request(t.baseUrl).get('/v1/funding-rates/history').query({ ticker: 'BTC-USDT', days: 1 }).set('X-Forwarded-For', '203.0.113.9').expect(429);
    expect(history.body).toEqual(LIMITED);
  });

  it('the spreads count in the group: 30 spreads pass, the 31st call (funding rates) is 429', async () => {
    for (let i = 0; i < 30; i++) await request(t.baseUrl).get('/v1/funding-rates/spreads').set('X-Forwarded-For', '203.0.113.77').expect(200);
    await calls[0]('203.0.113.77').expect(429);
  });

  it('another client IP is unaffected, and a route outside the group still answers the limited client', async () => {
    await calls[0]('198.51.100.9').expect(200);
    await request(t.baseUrl).get('/health').set('X-Forwarded-For', '203.0.113.9').expect(200);
  });

  it('with no collection yet (market data not configured): 200, data [], total 0', async () => {
    const res = await calls[0]('192.0.2.1').expect(200);
    expect(res.body).toMatchObject({ data: [], total: 0 });
    expect(typeof res.body.generatedAt).toBe('string');
  });
});
