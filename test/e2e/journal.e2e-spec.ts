import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const OPS = '/v1/journal/operations';

/** A closed spot/futures pair: gross (101−100)×2 + (102−101.5)×2 = 3; net 3 − 0.5 + 0.25 = 2.75. */
const closedPair = (email: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  email,
  strategy: 'spot_futures',
  asset: 'btc',
  buyExchange: 'Binance',
  sellExchange: 'binance',
  openedAt: '2026-03-01T09:30:00-03:00',
  closedAt: '2026-03-02T10:00:00-03:00',
  quantity: 2,
  shortQuantity: 2,
  entryBuyPrice: 100,
  entrySellPrice: 102,
  exitSellPrice: 101,
  exitBuyPrice: 101.5,
  tradingFees: 0.5,
  funding: 0.25,
  ...overrides,
});

/** An open cross-exchange long of 1 at 100. */
const openLong = (email: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  email,
  strategy: 'cross_exchange',
  asset: 'ETH',
  buyExchange: 'okx',
  sellExchange: 'bybit',
  openedAt: '2026-03-05T12:00:00Z',
  quantity: 1,
  entryBuyPrice: 100,
  ...overrides,
});

describe('journal operations (rules: journal)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (body: unknown) => request(t.baseUrl).post(OPS).send(body as object);

  it('creates a closed operation: 201, normalised fields, defaults and computed results', async () => {
    const res = await post(closedPair('c1@example.com')).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'c1@example.com',
      status: 'closed',
      strategy: 'spot_futures',
      asset: 'BTC',
      buyExchange: 'binance',
      sellExchange: 'binance',
      quantity: 2,
      shortQuantity: 2,
      entryBuyPrice: 100,
      entrySellPrice: 102,
      exitBuyPrice: 101.5,
      exitSellPrice: 101,
      tradingFees: 0.5,
      withdrawalFees: 0,
      funding: 0.25,
      feesEstimated: false,
      grossPnl: 3,
      netPnl: 2.75,
      netPnlPct: 0.68069307, // 2.75 ÷ (100×2 + 102×2) × 100
      openedAt: '2026-03-01T12:30:00.000Z',
      closedAt: '2026-03-02T13:00:00.000Z',
      source: 'manual',
      externalId: null,
      notes: null,
    });
  });

  it('creates an open operation: results are null; a zero-quantity leg may have null prices', async () => {
    const res = await post(openLong('c2@example.com')).expect(201);
    expect(res.body).toMatchObject({ status: 'open', shortQuantity: 0, entrySellPrice: null, grossPnl: null, netPnl: null, netPnlPct: null, closedAt: null });
  });

  it('documents every journal endpoint in Swagger under the journal tag, with the `errors` rule error examples', async () => {
    const { body } = await request(t.baseUrl).get('/docs-json').expect(200);
    const ops = [
      ['/v1/journal/operations', 'post'],
      ['/v1/journal/operations', 'get'],
      ['/v1/journal/operations/{id}', 'get'],
      ['/v1/journal/operations/{id}', 'patch'],
      ['/v1/journal/operations/{id}', 'delete'],
      ['/v1/journal/summary', 'get'],
      ['/v1/journal/export.csv', 'get'],
      ['/v1/journal/import', 'post'],
    ] as const;
    for (const [path, method] of ops) {
      const op = body.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(['journal']);
      expect(op.summary).toEqual(expect.any(String));
      expect(Object.keys(op.responses)).toContain('400');
    }
    expect(body.paths['/v1/journal/operations/{id}'].get.responses['404'].content['application/json'].examples['operation not found'].value)
      .toEqual({ statusCode: 404, message: 'operation not found', error: 'Not Found' });
  });

  describe('create: 400s with the `errors` rule body, required checks first in the `journal` rule order', () => {
    const full = openLong('v@example.com');
    const without = (...keys: string[]) => Object.fromEntries(Object.entries(full).filter(([k]) => !keys.includes(k)));
    it.each([
      [{}, 'email is required'],
      [without('email'), 'email is required'],
      [{ ...full, email: 'nope' }, 'email is invalid'],
      [without('strategy', 'asset'), 'strategy is required'],
      [without('asset'), 'asset is required'],
      [without('buyExchange'), 'buyExchange is required'],
      [{ ...full, sellExchange: '  ' }, 'sellExchange is required'],
      [without('openedAt'), 'openedAt is required'],
      [without('quantity'), 'quantity is required'],
      [without('entryBuyPrice'), 'entryBuyPrice is required'],
      [{ ...without('quantity', 'entryBuyPrice'), shortQuantity: 1 }, 'entrySellPrice is required'],
      [{ ...full, closedAt: '2026-03-06T00:00:00Z' }, 'exitSellPrice is required'],
      [{ ...full, shortQuantity: 1, entrySellPrice: 10, closedAt: '2026-03-06T00:00:00Z', exitSellPrice: 101 }, 'exitBuyPrice is required'],
      [{ ...without('entryBuyPrice'), strategy: 'hodl' }, 'entryBuyPrice is required'],
      [{ ...full, strategy: 'hodl' }, 'strategy must be one of spot_futures, cross_exchange, funding, other'],
      [{ ...full, asset: 'BTC/USDT' }, 'asset must be letters or digits, such as BTC'],
      [{ ...full, openedAt: '2026-03-05 noon' }, 'openedAt must be an RFC 3339 timestamp'],
      [{ ...full, openedAt: '2026-03-05T12:00:00' }, 'openedAt must be an RFC 3339 timestamp'],
      [{ ...full, quantity: '1' }, 'quantity must be a number'],
      [{ ...full, quantity: -1 }, 'quantity must be zero or a positive number'],
      [{ ...full, quantity: 0 }, 'quantity or shortQuantity must be a positive number'],
      [{ ...full, quantity: 0, shortQuantity: 0 }, 'quantity or shortQuantity must be a positive number'],
      [{ ...full, entryBuyPrice: 0 }, 'entryBuyPrice must be a positive number'],
      [{ ...full, exitBuyPrice: -3 }, 'exitBuyPrice must be a positive number'],
      [{ ...full, closedAt: '2026-03-04T00:00:00Z', exitSellPrice: 1 }, 'closedAt must not be before openedAt'],
      [{ ...full, tradingFees: -0.1 }, 'tradingFees must be zero or a positive number'],
      [{ ...full, withdrawalFees: 'x' }, 'withdrawalFees must be a number'],
      [{ ...full, funding: '1' }, 'funding must be a number'],
      [{ ...full, feesEstimated: 'yes' }, 'feesEstimated must be true or false'],
      [{ ...full, source: 'my source' }, 'source must be a lower-case word (letters, digits, _ or -)'],
      [{ ...full, source: 'a'.repeat(33) }, 'source must be at most 32 characters'],
      [{ ...full, externalId: 'x'.repeat(129) }, 'externalId must be at most 128 characters'],
      [{ ...full, notes: 'n'.repeat(2001) }, 'notes must be at most 2000 characters'],
    ])('%j -> %s', async (body, message) => {
      const res = await post(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });

    it('malformed JSON and non-object bodies: Invalid request body', async () => {
      for (const body of ['{"email": ', '[1]']) {
        const res = await request(t.baseUrl).post(OPS).set('Content-Type', 'application/json').send(body).expect(400);
        expect(res.body.message).toBe('Invalid request body');
      }
    });

    it('a leg with quantity 0 needs no prices; 2000-character notes and a 32-character source are fine', async () => {
      const body = { ...openLong('edge@example.com'), shortQuantity: 0, entrySellPrice: null, notes: 'n'.repeat(2000), source: 'a'.repeat(32) };
      await post(body).expect(201);
    });
  });

  describe('externalId', () => {
    it('is unique per (email, source): 409 on the same source, fine on another source or user', async () => {
      await post(openLong('x1@example.com', { externalId: 'T-1' })).expect(201);
      const dup = await post(openLong('x1@example.com', { externalId: 'T-1' })).expect(409);
      expect(dup.body).toEqual({ statusCode: 409, message: 'an operation with this externalId already exists for this source', error: 'Conflict' });
      await post(openLong('x1@example.com', { externalId: 'T-1', source: 'binance' })).expect(201);
      await post(openLong('x2@example.com', { externalId: 'T-1' })).expect(201);
    });
  });

  describe('get, patch, delete and ownership', () => {
    it('GET one is the owner’s; another user’s id, an unknown id and a non-uuid are 404 operation not found', async () => {
      const { body } = await post(openLong('own@example.com')).expect(201);
      await request(t.baseUrl).get(`${OPS}/${body.id}`).query({ email: 'OWN@example.com' }).expect(200);
      for (const [id, email] of [
        [body.id, 'other@example.com'],
        ['3f1f8a54-2d0c-4d6a-9a51-000000000000', 'own@example.com'],
        ['nope', 'own@example.com'],
      ]) {
        const res = await request(t.baseUrl).get(`${OPS}/${id}`).query({ email }).expect(404);
        expect(res.body).toEqual({ statusCode: 404, message: 'operation not found', error: 'Not Found' });
      }
      await request(t.baseUrl).patch(`${OPS}/${body.id}`).query({ email: 'other@example.com' }).send({ notes: 'x' }).expect(404);
      await request(t.baseUrl).delete(`${OPS}/${body.id}`).query({ email: 'other@example.com' }).expect(404);
      const missing = await request(t.baseUrl).get(`${OPS}/${body.id}`).expect(400);
      expect(missing.body.message).toBe('email is required');
    });

    it('open → closed by PATCH with closedAt and the exit price the leg needs', async () => {
      const { body } = await post(openLong('close@example.com')).expect(201);
      const patch = (b: object) => request(t.baseUrl).patch(`${OPS}/${body.id}`).query({ email: 'close@example.com' }).send(b);
      const missingExit = await patch({ closedAt: '2026-03-06T12:00:00Z' }).expect(400);
      expect(missingExit.body.message).toBe('exitSellPrice is required');
      const closed = await patch({ closedAt: '2026-03-06T12:00:00Z', exitSellPrice: 104, tradingFees: 0.5 }).expect(200);
      expect(closed.body).toMatchObject({ status: 'closed', grossPnl: 4, netPnl: 3.5, netPnlPct: 3.5, closedAt: '2026-03-06T12:00:00.000Z' });
    });

    it('a closed operation stays closed, but its fields may be corrected', async () => {
      const { body } = await post(closedPair('fix@example.com')).expect(201);
      const patch = (b: object) => request(t.baseUrl).patch(`${OPS}/${body.id}`).query({ email: 'fix@example.com' }).send(b);
      const reopen = await patch({ closedAt: null }).expect(400);
      expect(reopen.body.message).toBe('closedAt cannot be removed from a closed operation');
      const fixed = await patch({ funding: -1.25, notes: 'corrected', exitSellPrice: 102 }).expect(200);
      // gross (102−100)×2 + 1 = 5; net 5 − 0.5 − 1.25 = 3.25
      expect(fixed.body).toMatchObject({ status: 'closed', grossPnl: 5, netPnl: 3.25, funding: -1.25, notes: 'corrected' });
      const bad = await patch({ exitBuyPrice: null }).expect(400);
      expect(bad.body.message).toBe('exitBuyPrice is required');
      const badType = await patch({ quantity: 'lots' }).expect(400);
      expect(badType.body.message).toBe('quantity must be a number');
      const got = await request(t.baseUrl).get(`${OPS}/${body.id}`).query({ email: 'fix@example.com' }).expect(200);
      expect(got.body).toEqual(fixed.body);
    });

    it('PATCH to an externalId another operation holds is 409', async () => {
      await post(openLong('px@example.com', { externalId: 'A' })).expect(201);
      const { body } = await post(openLong('px@example.com', { externalId: 'B' })).expect(201);
      await request(t.baseUrl).patch(`${OPS}/${body.id}`).query({ email: 'px@example.com' }).send({ externalId: 'A' }).expect(409);
    });

    it('DELETE: 204, then 404', async () => {
      const { body } = await post(openLong('del@example.com')).expect(201);
      await request(t.baseUrl).delete(`${OPS}/${body.id}`).query({ email: 'del@example.com' }).expect(204);
      await request(t.baseUrl).delete(`${OPS}/${body.id}`).query({ email: 'del@example.com' }).expect(404);
    });
  });

  describe('listing', () => {
    const email = 'list@example.com';
    beforeAll(async () => {
      await post(openLong(email, { openedAt: '2026-03-10T12:00:00Z', asset: 'SOL' })).expect(201);
      await post(closedPair(email, { openedAt: '2026-03-01T12:00:00Z', closedAt: '2026-03-20T12:00:00Z' })).expect(201);
      await post(closedPair(email, { openedAt: '2026-02-01T12:00:00Z', closedAt: '2026-02-02T12:00:00Z', source: 'import', strategy: 'funding' })).expect(201);
    });
    const list = (query: Record<string, unknown>) => request(t.baseUrl).get(OPS).query({ email, ...query });

    it('newest opened first, in a { data, total } envelope', async () => {
      const res = await list({}).expect(200);
      expect(res.body.total).toBe(3);
      expect(res.body.data.map((o: { openedAt: string }) => o.openedAt)).toEqual([
        '2026-03-10T12:00:00.000Z',
        '2026-03-01T12:00:00.000Z',
        '2026-02-01T12:00:00.000Z',
      ]);
    });

    it('filters status, strategy, asset, source; limit/offset page after total', async () => {
      expect((await list({ status: 'open' })).body.total).toBe(1);
      expect((await list({ strategy: 'funding' })).body.total).toBe(1);
      expect((await list({ asset: 'sol' })).body.total).toBe(1);
      expect((await list({ source: 'import' })).body.total).toBe(1);
      const page = await list({ limit: 1, offset: 1 }).expect(200);
      expect(page.body.total).toBe(3);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.data[0].openedAt).toBe('2026-03-01T12:00:00.000Z');
    });

    it('from/to filter closedAt of closed operations and openedAt of open ones, [from, to)', async () => {
      // open one opened 03-10; closed ones closed 03-20 and 02-02 (opened 03-01 and 02-01)
      const march = await list({ from: '2026-03-05T00:00:00Z', to: '2026-03-20T12:00:00Z' }).expect(200);
      expect(march.body.data.map((o: { status: string }) => o.status)).toEqual(['open']);
      const incl = await list({ from: '2026-03-20T12:00:00Z' }).expect(200);
      expect(incl.body.total).toBe(1);
    });

    it.each([
      [{ limit: 0 }, 'limit must be an integer from 1 to 500'],
      [{ limit: 501 }, 'limit must be an integer from 1 to 500'],
      [{ limit: 'x' }, 'limit must be an integer from 1 to 500'],
      [{ offset: -1 }, 'offset must be an integer of 0 or more'],
      [{ status: 'pending' }, 'status must be one of open, closed'],
      [{ from: 'yesterday' }, 'from must be an RFC 3339 timestamp'],
      [{ to: '2026-13-01T00:00:00Z' }, 'to must be an RFC 3339 timestamp'],
      [{ from: '2026-03-02T00:00:00Z', to: '2026-03-02T00:00:00Z' }, 'to must be after from'],
      [{ email: '' }, 'email is required'],
    ])('%j -> 400 %s', async (query, message) => {
      const res = await list(query).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });
  });
});
