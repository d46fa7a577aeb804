import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });
const HEADER =
  'id,status,strategy,asset,buy_exchange,sell_exchange,quantity,short_quantity,entry_buy_price,entry_sell_price,' +
  'exit_buy_price,exit_sell_price,trading_fees,withdrawal_fees,funding,fees_estimated,gross_pnl,net_pnl,net_pnl_pct,' +
  'opened_at,closed_at,source,external_id,notes';
const ROW = ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,';

/** Every route that takes a JSON body, with a body it would otherwise accept or judge on its fields. */
const JSON_ROUTES: [string, string, Record<string, unknown>][] = [
  ['POST', '/v1/calculators', { email: 'g@example.com', ticker: 'BTC-USDT' }],
  ['POST', '/v1/calculators/process', { email: 'g@example.com', ticker: 'BTC-USDT', exchange: 'binance' }],
  ['POST', '/v1/lookers', { email: 'g@example.com', name: 'n', cryptos: ['BTCUSDT'] }],
  ['POST', '/v1/favorite-cryptos', { email: 'g@example.com', ticker: 'BTCUSDT' }],
  ['POST', '/v1/journal/operations', { email: 'g@example.com', strategy: 'other', asset: 'BTC', buyExchange: 'a', sellExchange: 'b', openedAt: '2026-01-01T00:00:00Z', quantity: 1, entryBuyPrice: 10 }],
  ['POST', '/v1/opportunity-history/backtest', { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0 }],
  ['POST', '/v1/arbitrage/future/crossing-counts', { date: '2026-03-10' }],
];

/** A JSON text nested `depth` levels deep under `at`, built as text (JSON.stringify would recurse). */
const deepBody = (fields: Record<string, unknown>, depth: number): string =>
  `${JSON.stringify(fields).slice(0, -1)},"at":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** One guard before class-transformer, the validator and the database. */
describe('input guard: depth, Unicode, NUL, non-finite numbers, content type, empty query values (rules: errors)', () => {
  let t: TestApp;
  const send = (method: string, path: string) =>
    method === 'PATCH' ? request(t.baseUrl).patch(path) : request(t.baseUrl).post(path);

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000', SAMPLE_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(JSON_ROUTES)('%s %s: a body nested 10,000 levels deep is a 400, not a stack overflow', async (method, path, fields) => {
    const res = await send(method, path).set('Content-Type', 'application/json').send(deepBody(fields, 10_000)).expect(400);
    expect(res.body).toEqual(bad('request body must not be nested more than 8 levels deep'));
  });

  it('nesting within the limit is judged by the route as before', async () => {
    const res = await request(t.baseUrl).post('/v1/lookers').set('Content-Type', 'application/json').send(deepBody({ email: 'g@example.com' }, 6)).expect(201);
    expect(res.body.email).toBe('g@example.com');
  });

  it.each([
    ['/v1/favorite-cryptos', { email: '\ud800', ticker: 'BTC-USDT' }, 'email'],
    ['/v1/lookers', { email: 'a\udc00@example.com', cryptos: [] }, 'email'],
    ['/v1/calculators', { email: 'g@example.com', ticker: 'BTC-USDT\ud83d' }, 'ticker'],
    ['/v1/lookers', { email: 'g@example.com', cryptos: ['BTCUSDT', '\udfff'] }, 'cryptos[1]'],
  ])('POST %s with a lone surrogate: 400 naming the field', async (path, body, field) => {
    const res = await request(t.baseUrl).post(path).send(body).expect(400);
    expect(res.body).toEqual(bad(`${field} must be well-formed Unicode (no lone surrogates)`));
  });

  it.each([
    ['POST', '/v1/lookers', { email: 'g@example.com', name: 'a\u0000b' }, 'name'],
    ['POST', '/v1/journal/operations', { ...JSON_ROUTES[4]?.[2], notes: 'x\u0000' }, 'notes'],
    ['POST', '/v1/favorite-cryptos', { email: 'g@example.com', ticker: 'BTCUSDT', ['k\u0000']: 1 }, 'member names'],
  ])('%s %s with a NUL character: 400, nothing stored', async (method, path, body, field) => {
    const res = await send(method, path).send(body).expect(400);
    expect(res.body).toEqual(bad(`${field} must not contain NUL characters`));
  });

  it('PATCH of a journal operation with a NUL in its notes: 400, the operation unchanged', async () => {
    const created = await request(t.baseUrl).post('/v1/journal/operations').send(JSON_ROUTES[4]?.[2] ?? {}).expect(201);
    const path = `/v1/journal/operations/${created.body.id}?email=g@example.com`;
    await request(t.baseUrl).patch(path).send({ notes: 'a\u0000b' }).expect(400, bad('notes must not contain NUL characters'));
    expect((await request(t.baseUrl).get(path).expect(200)).body.notes).toBeNull();
  });

  it('a CSV import holding a NUL: 400 and no row stored (PostgreSQL cannot store NUL)', async () => {
    const csv = [HEADER, ROW + 'fine', ROW + 'bad\u0000note'].join('\n');
    const res = await request(t.baseUrl).post('/v1/journal/import').query({ email: 'nul@example.com' }).set('Content-Type', 'text/csv').send(csv).expect(400);
    expect(res.body).toEqual(bad('request body must not contain NUL characters'));
    expect((await request(t.baseUrl).get('/v1/journal/operations').query({ email: 'nul@example.com' }).expect(200)).body.total).toBe(0);
  });

  it('numbers JSON.parse turns into Infinity (1e999): 400 naming the field', async () => {
    const text = '{"email":"g@example.com","ticker":"BTC-USDT","spotEntryPrice":1e999}';
    const res = await request(t.baseUrl).post('/v1/calculators').set('Content-Type', 'application/json').send(text).expect(400);
    expect(res.body).toEqual(bad('spotEntryPrice must be a finite number'));
  });

  it.each(JSON_ROUTES)('%s %s: a JSON body sent as text/plain is a 415, not read as empty', async (method, path, fields) => {
    const res = await send(method, path).set('Content-Type', 'text/plain').send(JSON.stringify(fields)).expect(415);
    expect(res.body).toEqual({ statusCode: 415, message: 'Content-Type must be application/json', error: 'Unsupported Media Type' });
  });

  it.each([
    ['/v1/journal/summary', { email: 'g@example.com', from: '' }, 'from must not be empty'],
    ['/v1/journal/summary', { email: 'g@example.com', to: '' }, 'to must not be empty'],
    ['/v1/journal/operations', { email: 'g@example.com', status: '' }, 'status must not be empty'],
    ['/v1/funding-rates', { symbol: '' }, 'symbol must not be empty'],
    ['/v1/arbitrage/future/crossing-counts', { from: '', to: '2026-03-10' }, 'from must not be empty'],
    ['/v1/journal/summary', { email: 'g@example.com', asset: 'BT\u0000C' }, 'asset must not contain NUL characters'],
  ])('GET %s %j: 400 %s', async (path, query, message) => {
    const res = await request(t.baseUrl).get(path).query(query).expect(400);
    expect(res.body).toEqual(bad(message));
  });

  it('a 404 does not echo the path or the query string', async () => {
    const res = await request(t.baseUrl).get('/v1/no-such-route').query({ email: 'secret.person@example.com' }).expect(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'route not found', error: 'Not Found' });
  });

  // Found by the fuzz suite: the router's text was `Failed to decode param '<the segment>'`.
  it.each(['/v1/journal/operations/secret%ED%A0%80', '/v1/lookers/%FFsecret', '/v1/calculators/secret%E0%A4%A'])(
    'a path segment that is not UTF-8 (%s) is a 400 that does not repeat it',
    async (path) => {
      const res = await request(t.baseUrl).delete(path).query({ email: 'g@example.com' }).expect(400);
      expect(res.body).toEqual(bad('request path must be well-formed UTF-8'));
    },
  );

  it('a GET with a JSON body over 1 MiB is the documented 413, and a charset the parser cannot read the documented 415', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1_100_000) });
    const tooLarge = await request(t.baseUrl).get('/v1/realtime/prices').set('Content-Type', 'application/json').send(big).expect(413);
    expect(tooLarge.body).toEqual({ statusCode: 413, message: 'request body too large', error: 'Payload Too Large' });
    const latin1 = await request(t.baseUrl).get('/health').set('Content-Type', 'application/json; charset=latin1').send('{}').expect(415);
    expect(latin1.body).toEqual({ statusCode: 415, message: 'unsupported content type', error: 'Unsupported Media Type' });
  });

  it('a message never repeats a member name that is itself input', async () => {
    const res = await request(t.baseUrl).post('/v1/lookers').send({ email: 'g@example.com', ['<script>']: '\ud800' }).expect(400);
    expect(res.body).toEqual(bad('(member) must be well-formed Unicode (no lone surrogates)'));
  });

  it('the service still answers after every refusal', async () => {
    await request(t.baseUrl).get('/health').expect(200);
  });
});
