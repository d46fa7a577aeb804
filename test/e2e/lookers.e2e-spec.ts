import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { nextMillisecond } from '../utils/wait.js';

/** Looker CRUD: POST and GET (rules: lookers, tickers, errors), and the PATCH/DELETE of the feature. */
describe('lookers CRUD (rules: lookers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ EXCHANGES: 'bybit,binance' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (body: unknown) => request(t.baseUrl).post('/v1/lookers').send(body as object);
  const list = (email?: string) => request(t.baseUrl).get('/v1/lookers').query(email === undefined ? {} : { email });
  const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });
  const notFound = { statusCode: 404, message: 'looker not found', error: 'Not Found' };

  describe('POST /v1/lookers', () => {
    it('201 with id, email, name, BASEQUOTE cryptos in order and a millisecond timestamp', async () => {
      const before = Date.now();
      const res = await post({ email: 'l1@example.com', name: 'Majors', cryptos: ['BTCUSDT', 'eth-usdt', 'SolUsdt'] }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: 'l1@example.com',
        name: 'Majors',
        cryptos: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'],
        exchange: 'bybit',
        market: 'SPOT',
        timestamp: expect.any(Number),
      });
      expect(res.body.timestamp).toBeGreaterThanOrEqual(before - 1000);
      expect(res.body.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('the `lookers` rule: omitted name is null, omitted cryptos is [], exchange defaults to the first configured, market to SPOT', async () => {
      const res = await post({ email: 'l2@example.com' }).expect(201);
      expect(res.body).toMatchObject({ name: null, cryptos: [], exchange: 'bybit', market: 'SPOT' });
    });

    it('the `lookers` rule: duplicates removed, first occurrence kept, across both ticker forms and any case', async () => {
      const res = await post({ email: 'l3@example.com', cryptos: ['ETHUSDT', 'BTC-USDT', 'eth-usdt', 'btcusdt', 'ETHUSDT', 'SOLUSDT'] }).expect(201);
      expect(res.body.cryptos).toEqual(['ETHUSDT', 'BTCUSDT', 'SOLUSDT']);
    });

    it('accepts exactly 6 cryptos', async () => {
      const cryptos = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
      const res = await post({ email: 'six@example.com', cryptos }).expect(201);
      expect(res.body.cryptos).toEqual(cryptos);
    });

    it('the `lookers` rule: exchange (any case) and market FUTURES are stored', async () => {
      const res = await post({ email: 'l4@example.com', cryptos: ['BTCUSDT'], exchange: 'BINANCE', market: 'futures' }).expect(201);
      expect(res.body).toMatchObject({ exchange: 'binance', market: 'FUTURES' });
    });

    it('the `lookers` rule: a crypto is checked for its form, not for being listed', async () => {
      const res = await post({ email: 'l5@example.com', cryptos: ['NOTLISTEDUSDT'] }).expect(201);
      expect(res.body.cryptos).toEqual(['NOTLISTEDUSDT']);
    });

    it('a blank name is stored as null and a name is trimmed', async () => {
      expect((await post({ email: 'l6@example.com', name: '   ' }).expect(201)).body.name).toBeNull();
      expect((await post({ email: 'l6@example.com', name: '  Alts ' }).expect(201)).body.name).toBe('Alts');
    });

    it('400 Invalid request body for malformed JSON and for a non-object body', async () => {
      for (const body of ['{"email": "a@b.c", ', '[1,2]', '"text"']) {
        const res = await request(t.baseUrl).post('/v1/lookers').set('Content-Type', 'application/json').send(body).expect(400);
        expect(res.body).toEqual(bad('Invalid request body'));
      }
    });

    const seven = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT', 'LTCUSDT'];
    it.each([
      [{}, 'email is required'],
      [{ email: '' }, 'email is required'],
      [{ email: null, cryptos: seven }, 'email is required'],
      [{ email: 'x@example.com', cryptos: seven }, 'maximum 6 cryptos allowed'],
      // The `lookers` rule: the limit counts the entries sent, even when duplicates would bring it under 6.
      [{ email: 'x@example.com', cryptos: ['BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT'] }, 'maximum 6 cryptos allowed'],
      [{ email: 'x@example.com', cryptos: [...seven.slice(0, 6), 'BAD/PAIR'] }, 'maximum 6 cryptos allowed'],
      [{ email: 'not-an-email', cryptos: ['BTCUSDT'] }, 'email is invalid'],
      [{ email: 'x@example.com', cryptos: ['BTC/USDT'] }, 'ticker is invalid'],
      [{ email: 'x@example.com', cryptos: ['BTCXYZ'] }, 'ticker is invalid'],
      [{ email: 'x@example.com', cryptos: [7] }, 'ticker is invalid'],
      [{ email: 'x@example.com', cryptos: 'BTCUSDT' }, 'cryptos must be an array of tickers'],
      [{ email: 'x@example.com', name: 42 }, 'name must be a string'],
      [{ email: 'x@example.com', name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
      [{ email: 'x@example.com', exchange: 'kraken' }, 'exchange must be one of bybit, binance'],
      // Listed by the `tickers` rule but not configured: no feed would ever quote it.
      [{ email: 'x@example.com', exchange: 'okx' }, 'exchange must be one of bybit, binance'],
      [{ email: 'x@example.com', exchange: 5 }, 'exchange must be one of bybit, binance'],
      [{ email: 'x@example.com', market: 'MARGIN' }, 'market must be SPOT or FUTURES'],
    ])('%j -> 400 %s', async (body, message) => {
      const res = await post(body).expect(400);
      expect(res.body).toEqual(bad(message));
    });
  });

  describe('GET /v1/lookers', () => {
    it('lists the user’s lookers newest first, e-mail case-insensitive, with every `lookers` field', async () => {
      const email = 'order@example.com';
      const ids: string[] = [];
      for (const name of ['first', 'second', 'third']) {
        ids.push((await post({ email, name, cryptos: ['BTCUSDT'] }).expect(201)).body.id);
        await nextMillisecond(); // distinct creation times, which order the list
      }
      await post({ email: 'someone-else@example.com', name: 'other' }).expect(201);
      const res = await list('ORDER@example.com').expect(200);
      expect(res.body.map((l: { name: string }) => l.name)).toEqual(['third', 'second', 'first']);
      expect(res.body.map((l: { id: string }) => l.id)).toEqual([...ids].reverse());
      const timestamps = res.body.map((l: { timestamp: number }) => l.timestamp);
      expect([...timestamps].sort((a, b) => b - a)).toEqual(timestamps);
      expect(Object.keys(res.body[0]).sort()).toEqual(['cryptos', 'email', 'exchange', 'id', 'market', 'name', 'timestamp']);
    });

    it('[] for a user with none', async () => {
      await list('nobody@example.com').expect(200, []);
    });

    it.each([
      [undefined, 'email parameter is required'],
      ['', 'email parameter is required'],
      ['not-an-email', 'email is invalid'],
    ])('email=%j -> 400 %s', async (email, message) => {
      const res = await list(email).expect(400);
      expect(res.body).toEqual(bad(message));
    });
  });

  describe('PATCH /v1/lookers/{id}', () => {
    const patch = (id: string, email: string | undefined, body: unknown) =>
      request(t.baseUrl).patch(`/v1/lookers/${id}`).query(email === undefined ? {} : { email }).send(body as object);

    it('renames, replaces cryptos with the creation rules, and keeps id, exchange, market and timestamp', async () => {
      const created = (await post({ email: 'p1@example.com', name: 'a', cryptos: ['BTCUSDT'], market: 'FUTURES' }).expect(201)).body;
      const renamed = await patch(created.id, 'p1@example.com', { name: 'b' }).expect(200);
      expect(renamed.body).toEqual({ ...created, name: 'b' });
      const recrypto = await patch(created.id, 'p1@example.com', { cryptos: ['sol-usdt', 'ETHUSDT', 'SOLUSDT'] }).expect(200);
      expect(recrypto.body).toEqual({ ...created, name: 'b', cryptos: ['SOLUSDT', 'ETHUSDT'] });
      const both = await patch(created.id, 'p1@example.com', { name: null, cryptos: [] }).expect(200);
      expect(both.body).toEqual({ ...created, name: null, cryptos: [] });
      const listed = await list('p1@example.com').expect(200);
      expect(listed.body).toEqual([both.body]);
    });

    it('400s: limit, form, nothing to change, email', async () => {
      const { id } = (await post({ email: 'p2@example.com' }).expect(201)).body;
      const cases: [string | undefined, unknown, string][] = [
        ['p2@example.com', { cryptos: Array.from({ length: 7 }, () => 'BTCUSDT') }, 'maximum 6 cryptos allowed'],
        ['p2@example.com', { cryptos: ['BTC_USDT'] }, 'ticker is invalid'],
        ['p2@example.com', {}, 'name or cryptos is required'],
        ['p2@example.com', { exchange: 'binance' }, 'name or cryptos is required'],
        [undefined, { name: 'x' }, 'email parameter is required'],
        ['bad', { name: 'x' }, 'email is invalid'],
      ];
      for (const [email, body, message] of cases) {
        const res = await patch(id, email, body).expect(400);
        expect(res.body).toEqual(bad(message));
      }
    });

    it('404 looker not found for another user’s looker, an unknown id, and a non-uuid id', async () => {
      const { id } = (await post({ email: 'p3@example.com', name: 'mine' }).expect(201)).body;
      for (const [target, email] of [
        [id, 'thief@example.com'],
        ['00000000-0000-4000-8000-000000000000', 'p3@example.com'],
        ['nope', 'p3@example.com'],
      ] as const) {
        const res = await patch(target, email, { name: 'stolen' }).expect(404);
        expect(res.body).toEqual(notFound);
      }
      expect((await list('p3@example.com')).body[0].name).toBe('mine');
    });

    it('400 id parameter is required for a blank or missing id', async () => {
      for (const id of ['%20', '']) {
        const res = await patch(id, 'p3@example.com', { name: 'x' }).expect(400);
        expect(res.body).toEqual(bad('id parameter is required'));
      }
    });
  });

  describe('DELETE /v1/lookers/{id}', () => {
    const del = (id: string, email?: string) =>
      request(t.baseUrl).delete(`/v1/lookers/${id}`).query(email === undefined ? {} : { email });

    it('204 for the owner, then 404 looker not found', async () => {
      const { id } = (await post({ email: 'd1@example.com' }).expect(201)).body;
      await del(id, 'D1@example.com').expect(204, '');
      expect((await del(id, 'd1@example.com').expect(404)).body).toEqual(notFound);
      await list('d1@example.com').expect(200, []);
    });

    it('another user gets 404 and the looker stays; non-uuid ids are 404', async () => {
      const { id } = (await post({ email: 'd2@example.com' }).expect(201)).body;
      expect((await del(id, 'thief@example.com').expect(404)).body).toEqual(notFound);
      expect((await del('not-a-uuid', 'd2@example.com').expect(404)).body).toEqual(notFound);
      expect((await list('d2@example.com')).body).toHaveLength(1);
    });

    it('400 id parameter is required for a blank or missing id', async () => {
      for (const id of ['%20', '']) expect((await del(id, 'd3@example.com').expect(400)).body).toEqual(bad('id parameter is required'));
    });

    it('400 without email', async () => {
      const { id } = (await post({ email: 'd3@example.com' }).expect(201)).body;
      expect((await del(id).expect(400)).body).toEqual(bad('email parameter is required'));
    });
  });

  it('the documented 500 texts when the store fails, with no SQL in the body', async () => {
    const { id } = (await post({ email: 'fail@example.com', cryptos: ['BTCUSDT'] }).expect(201)).body;
    const db = t.app.get(DataSource);
    await db.query('ALTER TABLE lookers RENAME TO lookers_away');
    try {
      const failure = (message: string) => ({ statusCode: 500, message, error: 'Internal Server Error' });
      expect((await post({ email: 'fail@example.com' }).expect(500)).body).toEqual(failure('Failed to create looker'));
      expect((await list('fail@example.com').expect(500)).body).toEqual(failure('Failed to get lookers'));
      const stream = await request(t.baseUrl).get(`/v1/lookers/${id}/stream`).expect(500);
      expect(stream.body).toEqual(failure('Failed to load looker'));
    } finally {
      await db.query('ALTER TABLE lookers_away RENAME TO lookers');
    }
  });

  it('Swagger documents every looker endpoint', async () => {
    const doc = (await request(t.baseUrl).get('/docs-json').expect(200)).body;
    expect(Object.keys(doc.paths['/v1/lookers']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/lookers/{id}']).sort()).toEqual(['delete', 'patch']);
    expect(doc.paths['/v1/lookers/{id}/stream'].get.responses).toHaveProperty('404');
  });
});
