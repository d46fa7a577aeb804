import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { nextMillisecond } from '../utils/wait.js';

describe('favorite cryptos (rules: favorites, tickers, errors)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (body: unknown) => request(t.baseUrl).post('/v1/favorite-cryptos').send(body as object);

  it('creates a favorite: 201 with id, email, BASEQUOTE ticker and a millisecond timestamp', async () => {
    const before = Date.now();
    const res = await post({ email: 'fav1@example.com', ticker: 'BTCUSDT' }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'fav1@example.com',
      ticker: 'BTCUSDT',
      timestamp: expect.any(Number),
    });
    expect(res.body.timestamp).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('normalises BASE-QUOTE and any case to BASEQUOTE (rules: tickers)', async () => {
    const res = await post({ email: 'fav2@example.com', ticker: 'eth-usdt' }).expect(201);
    expect(res.body.ticker).toBe('ETHUSDT');
  });

  it.each([
    ['the same pair again', 'BTCUSDT'],
    ['another case', 'btcusdt'],
    ['the BASE-QUOTE form', 'BTC-USDT'],
  ])('409 for %s, and nothing changes', async (_label, ticker) => {
    await post({ email: 'dup@example.com', ticker: 'BTCUSDT' });
    const res = await post({ email: 'dup@example.com', ticker }).expect(409);
    expect(res.body).toEqual({ statusCode: 409, message: 'favorite crypto already exists', error: 'Conflict' });
    const list = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'dup@example.com' }).expect(200);
    expect(list.body).toHaveLength(1);
  });

  it('treats the e-mail case-insensitively', async () => {
    await post({ email: 'Case@Example.com', ticker: 'SOLUSDT' }).expect(201);
    await post({ email: 'case@example.com', ticker: 'SOLUSDT' }).expect(409);
  });

  it('two concurrent identical creates give one 201 and one 409', async () => {
    const body = { email: 'race@example.com', ticker: 'XRPUSDT' };
    const statuses = (await Promise.all([post(body), post(body)])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
  });

  it('a user may have many favorites', async () => {
    const tickers = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'ADAUSDT', 'DOGEUSDT', 'LTCUSDT', 'DOTUSDT', 'BNBUSDT'];
    for (const ticker of tickers) await post({ email: 'many@example.com', ticker }).expect(201);
    const list = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'many@example.com' }).expect(200);
    expect(list.body).toHaveLength(tickers.length);
  });

  describe('400s, with the `errors` rule body, in the API contract order', () => {
    it('malformed JSON: Invalid request body', async () => {
      const res = await request(t.baseUrl)
        .post('/v1/favorite-cryptos')
        .set('Content-Type', 'application/json')
        .send('{"email": "a@b.c", ')
        .expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'Invalid request body', error: 'Bad Request' });
    });

    it('a JSON array or string body: Invalid request body', async () => {
      for (const body of ['[1,2]', '"text"']) {
        const res = await request(t.baseUrl)
          .post('/v1/favorite-cryptos')
          .set('Content-Type', 'application/json')
          .send(body)
          .expect(400);
        expect(res.body.message).toBe('Invalid request body');
      }
    });

    it.each([
      [{}, 'email is required'],
      [{ ticker: 'BTCUSDT' }, 'email is required'],
      [{ email: '', ticker: 'BTCUSDT' }, 'email is required'],
      [{ email: '  ', ticker: 'BTCUSDT' }, 'email is required'],
      [{ email: null, ticker: 'BTCUSDT' }, 'email is required'],
      [{ email: 'a@b.co' }, 'ticker is required'],
      [{ email: 'a@b.co', ticker: '' }, 'ticker is required'],
      [{ email: 'not-an-email' }, 'ticker is required'],
      [{ email: 'not-an-email', ticker: 'BTCUSDT' }, 'email is invalid'],
      [{ email: 42, ticker: 'BTCUSDT' }, 'email is invalid'],
      [{ email: 'a@b.co', ticker: 'BTC/USDT' }, 'ticker is invalid'],
      [{ email: 'a@b.co', ticker: 'BTCXYZ' }, 'ticker is invalid'],
      [{ email: 'a@b.co', ticker: 7 }, 'ticker is invalid'],
    ])('%j -> %s', async (body, message) => {
      const res = await post(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });
  });

  describe('listing and removal', () => {
    it('lists newest first', async () => {
      const email = 'order@example.com';
      for (const ticker of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) {
        await post({ email, ticker }).expect(201);
        await nextMillisecond(); // distinct creation times, which order the list
      }
      const res = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'ORDER@example.com' }).expect(200);
      expect(res.body.map((f: { ticker: string }) => f.ticker)).toEqual(['SOLUSDT', 'ETHUSDT', 'BTCUSDT']);
    });

    it('lists [] for a user with none, and 400 without email', async () => {
      await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'none@example.com' }).expect(200, []);
      const res = await request(t.baseUrl).get('/v1/favorite-cryptos').expect(400);
      expect(res.body.message).toBe('email is required');
    });

    it('deletes the owner’s favorite with 204, then 404', async () => {
      const { body } = await post({ email: 'del@example.com', ticker: 'BTCUSDT' }).expect(201);
      await request(t.baseUrl).delete(`/v1/favorite-cryptos/${body.id}`).query({ email: 'del@example.com' }).expect(204);
      const again = await request(t.baseUrl).delete(`/v1/favorite-cryptos/${body.id}`).query({ email: 'del@example.com' }).expect(404);
      expect(again.body).toEqual({ statusCode: 404, message: 'favorite crypto not found', error: 'Not Found' });
    });

    it('another user cannot delete it (404) and it stays', async () => {
      const { body } = await post({ email: 'owner@example.com', ticker: 'BTCUSDT' }).expect(201);
      await request(t.baseUrl).delete(`/v1/favorite-cryptos/${body.id}`).query({ email: 'thief@example.com' }).expect(404);
      const list = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'owner@example.com' }).expect(200);
      expect(list.body).toHaveLength(1);
    });

    it('an id that is not a uuid is 404, not a database error', async () => {
      const res = await request(t.baseUrl).delete('/v1/favorite-cryptos/not-a-uuid').query({ email: 'x@example.com' }).expect(404);
      expect(res.body.message).toBe('favorite crypto not found');
    });
  });
});
