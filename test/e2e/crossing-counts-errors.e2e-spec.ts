import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const PATH = '/v1/arbitrage/future/crossing-counts';
const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });

/** Every 400/413/500 text of the crossing-count routes (rules: crossing-counts, errors), as the `errors` rule bodies. */
describe('crossing counts: error responses (rules: errors, crossing-counts)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000', SAMPLE_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  const postRaw = (text: string, type = 'application/json') =>
    request(t.baseUrl).post(PATH).set('Content-Type', type).send(text);

  describe('POST', () => {
    it.each(['{"date":', '{date: "2026-03-10"}', "{'date':'2026-03-10'}", '{"date":"2026-03-10"} x'])(
      'malformed JSON %s: 500 Failed to parse request body',
      async (text) => {
        const res = await postRaw(text).expect(500);
        expect(res.body).toEqual({ statusCode: 500, message: 'Failed to parse request body', error: 'Internal Server Error' });
      },
    );

    // One rule on every route; a JSON body under another content type was read here only.
    it.each([
      ['date=2026-03-10', 'application/x-www-form-urlencoded'],
      ['{"date":"2026-03-10"}', 'application/x-www-form-urlencoded'],
      ['{"date":"2026-03-10"}', 'text/plain'],
    ])('%s as %s: 415, nothing scheduled', async (text, type) => {
      const res = await postRaw(text, type).expect(415);
      expect(res.body).toEqual({ statusCode: 415, message: 'Content-Type must be application/json', error: 'Unsupported Media Type' });
    });

    it.each(['[]', '[{"date":"2026-03-10"}]', '"2026-03-10"', '42', 'true', 'null'])(
      'valid JSON that is not an object (%s): 400 Invalid request body',
      async (text) => {
        await postRaw(text).expect(400, bad('Invalid request body'));
      },
    );

    it.each([
      '2026-02-30', '2026-13-01', '2025-02-29', '2026-3-10', '26-03-10', '2026-03-10T00:00:00Z', '2026/03/10', '', ' 2026-03-10',
      20260310, true, {}, [],
    ])('date %j: 400 date must be a valid YYYY-MM-DD date', async (date) => {
      const res = await request(t.baseUrl).post(PATH).send({ date }).expect(400);
      expect(res.body).toEqual(bad('date must be a valid YYYY-MM-DD date'));
    });

    it('a real leap day is accepted', async () => {
      await request(t.baseUrl).post(PATH).send({ date: '2024-02-29' }).expect(202, { processingDate: '2024-02-29', status: 'accepted' });
    });

    it('a body over 1 MiB: 413', async () => {
      const res = await postRaw(JSON.stringify({ date: '2026-03-10', pad: 'x'.repeat(1024 * 1024) })).expect(413);
      expect(res.body).toEqual({ statusCode: 413, message: 'request body too large', error: 'Payload Too Large' });
    });
  });

  describe('GET', () => {
    const get = (query: Record<string, string>) => request(t.baseUrl).get(PATH).query(query);

    it.each(['2026-02-30', '2026-3-1', 'yesterday', '2026-03-10T00:00:00Z'])('from=%s: 400', async (from) => {
      await get({ from, to: '2026-03-10' }).expect(400, bad('from must be a valid YYYY-MM-DD date'));
    });

    it.each(['2026-04-31', '20260310'])('to=%s: 400', async (to) => {
      await get({ from: '2026-03-10', to }).expect(400, bad('to must be a valid YYYY-MM-DD date'));
    });

    it('from after to: 400; from = to is one day', async () => {
      await get({ from: '2026-03-11', to: '2026-03-10' }).expect(400, bad('to must be on or after from'));
      await get({ from: '2026-03-10', to: '2026-03-10' }).expect(200, []);
    });

    it('only a past to: from defaults to today, so the range is empty backwards: 400', async () => {
      await get({ to: '2020-01-01' }).expect(400, bad('to must be on or after from'));
    });

    it('a bad ticker or exchange: 400 in the `tickers` rule/the `errors` rule wording', async () => {
      await get({ ticker: 'BTC/USDT' }).expect(400, bad('ticker is invalid'));
      await get({ exchange: 'kraken' }).expect(400, bad('exchange must be one of binance, bybit, okx, gate, bitget'));
    });

    it('a repeated parameter is not a date: 400', async () => {
      await request(t.baseUrl).get(`${PATH}?from=2026-03-10&from=2026-03-11`).expect(400, bad('from must be a valid YYYY-MM-DD date'));
    });
  });
});
