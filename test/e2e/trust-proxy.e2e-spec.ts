import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * With TRUST_PROXY=1 express trusted every X-Forwarded-For hop, so a client picked
 * its own rate-limit key by writing any address there. Now the client is the address the
 * trusted proxies appended (the test connects from 127.0.0.1, playing the proxy).
 */
describe('TRUST_PROXY: a spoofed X-Forwarded-For cannot change the throttle key (rules: rate-limits)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const stats = (app: TestApp, forwardedFor: string) =>
    request(app.baseUrl)
      .get('/v1/opportunity-history/stats')
      .query({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0.5 })
      .set('X-Forwarded-For', forwardedFor);

  const remainingAfter = async (app: TestApp, forwarded: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (const value of forwarded) {
      const res = await stats(app, value);
      out.push(res.status === 429 ? -1 : Number(res.headers['x-ratelimit-remaining']));
    }
    return out;
  };

  it.each([
    ['a hop count', '1'],
    ['a list of proxy addresses and CIDRs', '10.0.0.0/8,127.0.0.1'],
  ])('%s: whatever the client writes before the proxy-appended address, one counter', async (_label, trust) => {
    t = await startTestApp({ TRUST_PROXY: trust, ARBITRAGE_RATE_LIMIT: '3' });
    const spoofed = ['6.6.6.1, 203.0.113.7', '6.6.6.2, 203.0.113.7', '203.0.113.7', '6.6.6.4, 6.6.6.5, 203.0.113.7'];
    expect(await remainingAfter(t, spoofed)).toEqual([2, 1, 0, -1]);
    // Another real client (as the proxy reports it) has its own budget.
    expect(await remainingAfter(t, ['6.6.6.1, 198.51.100.20'])).toEqual([2]);
  });

  it('a socket address that is not a listed proxy: X-Forwarded-For is ignored', async () => {
    t = await startTestApp({ TRUST_PROXY: '10.0.0.1', ARBITRAGE_RATE_LIMIT: '3' });
    expect(await remainingAfter(t, ['203.0.113.7', '198.51.100.20', '192.0.2.1', '192.0.2.2'])).toEqual([2, 1, 0, -1]);
  });
});
