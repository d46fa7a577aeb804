import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * A venue the registry supports but EXCHANGES does not name is refused like an unknown one, and every
 * `must be one of` text lists the configured venues, so the registry can grow without changing the
 * answers of an install that keeps the default five (rules: tickers).
 */
describe('exchange parameters accept the configured venues only (rules: tickers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ EXCHANGES: 'okx,binance' });
  });
  afterAll(async () => {
    await t.close();
  });

  const ONE_OF = 'exchange must be one of okx, binance';
  const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });
  const get = (path: string, query: Record<string, string>) => request(t.baseUrl).get(path).query(query);
  const post = (path: string, body: object) => request(t.baseUrl).post(path).send(body);
  const position = (exchange: string) => ({ email: 'c@example.com', ticker: 'BTC-USDT', exchange });

  it('GET /v1/funding-rates and its history', async () => {
    expect((await get('/v1/funding-rates', { exchange: 'bybit' }).expect(400)).body).toEqual(bad(ONE_OF));
    expect((await get('/v1/funding-rates', { exchange: 'nowhere' }).expect(400)).body).toEqual(bad(ONE_OF));
    await get('/v1/funding-rates', { exchange: 'OKX' }).expect(200);
    expect((await get('/v1/funding-rates/history', { ticker: 'BTC-USDT', exchange: 'gate' }).expect(400)).body).toEqual(bad(ONE_OF));
    await get('/v1/funding-rates/history', { ticker: 'BTC-USDT', exchange: 'Binance' }).expect(200);
  });

  it('GET /v1/arbitrage/future/crossing-counts', async () => {
    const path = '/v1/arbitrage/future/crossing-counts';
    expect((await get(path, { exchange: 'bitget' }).expect(400)).body).toEqual(bad(ONE_OF));
    await get(path, { exchange: 'okx' }).expect(200);
  });

  it('the calculators process body and stream query check the exchange last, after email and ticker', async () => {
    expect((await post('/v1/calculators/process', position('bybit')).expect(400)).body).toEqual(bad(ONE_OF));
    expect((await post('/v1/calculators/process', { ...position('bybit'), ticker: '??' }).expect(400)).body).toEqual(bad('ticker is invalid'));
    expect((await post('/v1/calculators/process', { ...position('bybit'), exchange: 7 }).expect(400)).body).toEqual(bad(ONE_OF));
    // A configured venue, any case, passes validation: no saved position is the next answer.
    expect((await post('/v1/calculators/process', position(' OKX ')).expect(404)).body.statusCode).toBe(404);
    expect((await get('/v1/calculators/stream', position('gate')).expect(400)).body).toEqual(bad(ONE_OF));
  });

  it('POST /v1/lookers, GET /v1/market/books and the backtest', async () => {
    expect((await post('/v1/lookers', { email: 'l@example.com', exchange: 'bybit' }).expect(400)).body).toEqual(bad(ONE_OF));
    expect((await get('/v1/market/books', { exchange: 'bybit', market: 'SPOT', ticker: 'BTC-USDT' }).expect(400)).body).toEqual(bad(ONE_OF));
    const backtest = { ticker: 'BTC-USDT', buy: 'bybit', sell: 'okx', days: 1, threshold: 0.5 };
    expect((await post('/v1/opportunity-history/backtest', backtest).expect(400)).body).toEqual(bad('buy must be one of okx, binance'));
  });

  it('GET /v1/realtime/arbitrage filters by configured venues only', async () => {
    const res = await get('/v1/realtime/arbitrage', { exchanges: 'okx,bybit' }).expect(400);
    expect(res.body).toEqual(bad('exchanges must be a comma list of okx, binance'));
  });
});
