import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * Order-book depth as clients reach it without any book held: the new stream
 * parameters' 400s, GET /v1/market/books' 400s and 404, /health/market's `books`. No feeds: the
 * route checks do not need the simulator (the simulator-driven checks are in depth.e2e-spec.ts).
 */
describe('order-book depth: parameters, the books endpoint and health', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ EXCHANGES: 'binance,okx,gate' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const cases: [Record<string, string>, string][] = [
    [{ size: '9.99' }, 'size must be a number from 10 to 10000000'],
    [{ size: '10000001' }, 'size must be a number from 10 to 10000000'],
    [{ size: 'ten' }, 'size must be a number from 10 to 10000000'],
    [{ minSize: '-1' }, 'minSize must be a number from 0 to 10000000'],
    [{ minSize: 'x', size: '100' }, 'minSize must be a number from 0 to 10000000'],
  ];
  it.each(cases)('GET /v1/realtime/arbitrage %j → 400 %s', async (query, message) => {
    const res = await request(t.baseUrl).get('/v1/realtime/arbitrage').query(query).expect(400);
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  const bookCases: [Record<string, string>, string][] = [
    [{ market: 'SPOT', ticker: 'BTC-USDT' }, 'exchange must be one of binance, okx, gate'],
    [{ exchange: 'bybit', market: 'SPOT', ticker: 'BTC-USDT' }, 'exchange must be one of binance, okx, gate'],
    [{ exchange: 'binance', market: 'MARGIN', ticker: 'BTC-USDT' }, 'market must be SPOT or FUTURES'],
    [{ exchange: 'binance', market: 'spot', ticker: 'BTC/USDT!' }, 'ticker must be a ticker such as BTC-USDT'],
    [{ exchange: 'binance', market: 'spot' }, 'ticker must be a ticker such as BTC-USDT'],
  ];
  it.each(bookCases)('GET /v1/market/books %j → 400 %s', async (query, message) => {
    const res = await request(t.baseUrl).get('/v1/market/books').query(query).expect(400);
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('with the feeds off a book the service does not hold is 404 `book not held`, saying why and what the exchange holds', async () => {
    const res = await request(t.baseUrl).get('/v1/market/books').query({ exchange: 'OKX', market: 'spot', ticker: 'btcusdt' }).expect(404);
    expect(res.body).toEqual({
      statusCode: 404, message: 'book not held: the live feeds are off (ENABLED_WEBSOCKET=1 starts them); okx holds none now', error: 'Not Found',
    });
  });

  it('/health/market counts the books held per configured exchange, and says the feeds are off', async () => {
    const res = await request(t.baseUrl).get('/health/market').expect(200);
    expect(res.body.books).toEqual({ binance: 0, okx: 0, gate: 0 });
    expect(res.body.feeds).toBe('off');
  });
});
