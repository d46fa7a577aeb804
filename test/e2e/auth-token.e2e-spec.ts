import { readFileSync } from 'node:fs';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiTokenEntity } from '../../src/auth/api-token.entity.js';
import { ApiTokenStore } from '../../src/auth/api-token-store.js';
import { ApiTokensService } from '../../src/auth/api-tokens.service.js';
import { tokenCommand, TOKEN_USAGE } from '../../src/auth/token-command.js';
import { hashSecret, lookupOf, scryptHash } from '../../src/auth/token-secret.js';
import { MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';
import { SseTestClient } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

interface Operation {
  operationId: string;
  responses: Record<string, unknown>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/** A request of one operation, acting on `email`'s data. */
interface Call {
  query?: Record<string, string>;
  body?: object | string;
  contentType?: string;
  /** The path's `{id}`. */
  id?: string;
}

const UNAUTHORIZED = { statusCode: 401, message: 'missing or invalid token', error: 'Unauthorized' };
const FORBIDDEN = { statusCode: 403, message: 'email does not match the token', error: 'Forbidden' };
const OWNER = 'owner@example.com';
const OTHER = 'other@example.com';
const FLOODER_IP = '203.0.113.7';
const FAILED_PER_MINUTE = 40;

/**
 * AUTH_MODE=token against the whole app. The user-scoped operations are read from openapi.json
 * (those documenting the 403), so a new one without a recipe here fails the test instead of
 * being forgotten: each is called with no token (401), with another e-mail's token (403) and
 * with its owner's token (its documented 2xx).
 */
describe('AUTH_MODE=token: bearer tokens bound to an e-mail', () => {
  let t: TestApp;
  let ownerToken: string;
  let otherToken: string;
  const logs: string[] = [];
  const bodies: string[] = [];
  const ids: Record<string, string> = {};
  let csv = '';

  const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as Doc;
  const userScoped = Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))
    .filter(({ op }) => op.responses['403'] !== undefined)
    // Deletions last, so every other call finds its resource.
    .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

  const journalBody = {
    strategy: 'spot_futures', asset: 'btc', buyExchange: 'binance', sellExchange: 'binance', openedAt: '2026-03-01T09:30:00-03:00',
    quantity: 0.5, shortQuantity: 0.5, entryBuyPrice: 64000, entrySellPrice: 64100,
  };
  const alertBody = { name: 'BTC', kind: 'opportunity', condition: { minProfit: 0.3 }, channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook' } };
  const calculatorBody = { ticker: 'BTC-USDT', entrySpotValue: 95000, entryShortValue: 95150, entrySpotQty: 0.5, entryFuturesQty: 0.5 };
  const lookerBody = { name: 'Majors', cryptos: ['BTCUSDT'], exchange: 'binance', market: 'SPOT' };

  const RECIPES: Record<string, (email: string) => Call> = {
    listAlertDeliveries: (email) => ({ query: { email } }),
    listAlertRules: (email) => ({ query: { email } }),
    createAlertRule: (email) => ({ body: { email, ...alertBody } }),
    getAlertRule: (email) => ({ id: ids.alert, query: { email } }),
    updateAlertRule: (email) => ({ id: ids.alert, query: { email }, body: { enabled: false } }),
    deleteAlertRule: (email) => ({ id: ids.alert, query: { email } }),
    listCalculators: (email) => ({ query: { email } }),
    saveCalculator: (email) => ({ body: { email, ...calculatorBody } }),
    processCalculator: (email) => ({ body: { email, ticker: 'BTC-USDT', exchange: 'binance' } }),
    streamCalculator: (email) => ({ query: { email, ticker: 'BTC-USDT', exchange: 'binance' } }),
    deleteCalculator: (email) => ({ id: ids.calculator, query: { email } }),
    listFavoriteCryptos: (email) => ({ query: { email } }),
    createFavoriteCrypto: (email) => ({ body: { email, ticker: 'SOLUSDT' } }),
    deleteFavoriteCrypto: (email) => ({ id: ids.favorite, query: { email } }),
    exportJournalCsv: (email) => ({ query: { email } }),
    importJournalCsv: (email) => ({ query: { email }, body: csv, contentType: 'text/csv' }),
    listJournalOperations: (email) => ({ query: { email } }),
    createJournalOperation: (email) => ({ body: { email, ...journalBody } }),
    getJournalOperation: (email) => ({ id: ids.journal, query: { email } }),
    updateJournalOperation: (email) => ({ id: ids.journal, query: { email }, body: { notes: 'auth' } }),
    deleteJournalOperation: (email) => ({ id: ids.journal, query: { email } }),
    getJournalSummary: (email) => ({ query: { email } }),
    listLookers: (email) => ({ query: { email } }),
    createLooker: (email) => ({ body: { email, ...lookerBody } }),
    updateLooker: (email) => ({ id: ids.looker, query: { email }, body: { name: 'Renamed' } }),
    deleteLooker: (email) => ({ id: ids.looker, query: { email } }),
    // The looker's owner is whom the stream is for; another token is refused by the looker's e-mail.
    streamLooker: () => ({ id: ids.looker }),
  };

  const send = (method: string, path: string, call: Call, token?: string, ip?: string) => {
    const url = path.replace('{id}', call.id ?? 'missing');
    let req = request(t.baseUrl)[method as 'get'](url).query(call.query ?? {});
    if (token !== undefined) req = req.set('Authorization', `Bearer ${token}`);
    if (ip !== undefined) req = req.set('X-Forwarded-For', ip);
    if (call.contentType) req = req.set('Content-Type', call.contentType);
    if (call.body !== undefined) req = req.send(call.body);
    return req.then((res) => {
      bodies.push(res.text ?? '');
      return res;
    });
  };

  /** A stream's status and content type, closing it once the head arrives. */
  const openStream = async (url: string, headers: Record<string, string> = {}) => {
    const abort = new AbortController();
    const res = await fetch(url, { headers, signal: abort.signal });
    const head = { status: res.status, type: res.headers.get('content-type') ?? '', body: res.status === 200 ? '' : await res.text() };
    abort.abort();
    bodies.push(head.body);
    return head;
  };

  beforeAll(async () => {
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (text.startsWith('{"level"')) {
        logs.push(text);
        return true;
      }
      return write(chunk, ...(rest as []));
    });
    t = await startTestApp({
      AUTH_MODE: 'token', AUTH_FAILED_PER_MINUTE: String(FAILED_PER_MINUTE), TRUST_PROXY: '1',
      LOG_LEVEL: 'debug', LOG_FORMAT: 'json', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0',
      // The alert rule below points at 127.0.0.1 (rules: outbound-targets).
      ALERT_TARGETS_ALLOW_PRIVATE: '1',
    });
    const store = new ApiTokenStore(t.app.get(DataSource).getRepository(ApiTokenEntity));
    ownerToken = (await store.create({ email: 'Owner@Example.com', name: 'laptop' })).token;
    otherToken = (await store.create({ email: OTHER })).token;
    await t.app.get(MarketSampleRepository).insert([
      { time: new Date(), ticker: 'BTC-USDT', exchange: 'binance', spotBid: 95000, spotAsk: 95007, futuresBid: 95100, futuresAsk: 95109, fundingRate: null },
    ]);

    const own = async (method: string, path: string, call: Call, status: number) => {
      const res = await send(method, path, call, ownerToken);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
      return res;
    };
    ids.alert = (await own('post', '/v1/alerts/rules', { body: { email: OWNER, ...alertBody } }, 201)).body.id;
    ids.calculator = (await own('post', '/v1/calculators', { body: { email: OWNER, ...calculatorBody } }, 200)).body.id;
    ids.favorite = (await own('post', '/v1/favorite-cryptos', { body: { email: OWNER, ticker: 'BTCUSDT' } }, 201)).body.id;
    ids.journal = (await own('post', '/v1/journal/operations', { body: { email: OWNER, ...journalBody, externalId: 'auth-1' } }, 201)).body.id;
    ids.looker = (await own('post', '/v1/lookers', { body: { email: OWNER, ...lookerBody } }, 201)).body.id;
    csv = (await own('get', '/v1/journal/export.csv', { query: { email: OWNER } }, 200)).text;
  });

  afterAll(async () => {
    await t?.close();
    vi.restoreAllMocks();
  });

  it('openapi.json lists the user-scoped operations, and each has a recipe here', () => {
    expect(userScoped.length).toBeGreaterThanOrEqual(27);
    expect(userScoped.map(({ op }) => op.operationId).filter((id) => !RECIPES[id])).toEqual([]);
  });

  it('openapi.json: the bearer scheme, as optional security and a 401 on every operation but health and metrics', () => {
    const full = doc as Doc & { components: { securitySchemes?: Record<string, unknown> } };
    expect(full.components.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item) as (Operation & { security?: unknown })[]) {
        const open = path.startsWith('/health');
        expect(op.responses['401'] === undefined, `${op.operationId} 401`).toBe(open);
        expect(op.security, `${op.operationId} security`).toEqual(open ? undefined : [{}, { bearer: [] }]);
      }
    }
  });

  it('every user-scoped operation: 401 without a token, 403 with another e-mail\'s, its 2xx with its own', async () => {
    for (const { path, method, op } of userScoped) {
      const recipe = RECIPES[op.operationId];
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'));
      const label = `${op.operationId} (${method.toUpperCase()} ${path})`;
      if (path.endsWith('/stream')) {
        const call = recipe(OWNER);
        const url = `${t.baseUrl}${path.replace('{id}', call.id ?? '')}?${new URLSearchParams(call.query ?? {}).toString()}`;
        const none = await openStream(url);
        expect([none.status, JSON.parse(none.body)], `${label} without a token`).toEqual([401, UNAUTHORIZED]);
        const other = await openStream(url, { Authorization: `Bearer ${otherToken}` });
        expect([other.status, JSON.parse(other.body)], `${label} with another e-mail's token`).toEqual([403, FORBIDDEN]);
        const own = await openStream(url, { Authorization: `Bearer ${ownerToken}` });
        expect([own.status, own.type, own.body], `${label} with its own token`).toEqual([200, 'text/event-stream', '']);
        continue;
      }
      const none = await send(method, path, recipe(OWNER));
      expect([none.status, none.body], `${label} without a token`).toEqual([401, UNAUTHORIZED]);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const other = await send(method, path, recipe(OWNER), otherToken);
      expect([other.status, other.body], `${label} with another e-mail's token`).toEqual([403, FORBIDDEN]);
      const own = await send(method, path, recipe(OWNER), ownerToken);
      expect(String(own.status), `${label} with its own token: ${own.text}`).toBe(success);
    }
  });

  it('the e-mail compares without regard to case or surrounding spaces', async () => {
    await request(t.baseUrl).get('/v1/lookers').query({ email: ' OWNER@example.COM' }).set('Authorization', `Bearer ${ownerToken}`).expect(200);
  });

  it.each([
    ['an unknown token', `Bearer amt_${'A'.repeat(43)}`],
    ['a token without the scheme', 'amt_x'],
    ['another scheme', 'Basic b3duZXI6cHc='],
    ['junk', 'Bearer not-a-token'],
  ])('401 for %s', async (_label, header) => {
    const res = await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('Authorization', header).expect(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('a revoked or expired token is refused at once', async () => {
    const store = new ApiTokenStore(t.app.get(DataSource).getRepository(ApiTokenEntity));
    const revoked = await store.create({ email: OWNER });
    const expired = await store.create({ email: OWNER, expiresAt: new Date(Date.now() - 1000) });
    const call = (token: string) => request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('Authorization', `Bearer ${token}`);
    await call(revoked.token).expect(200);
    expect(await store.revoke(revoked.summary.id)).toBe(true);
    expect((await call(revoked.token).expect(401)).body).toEqual(UNAUTHORIZED);
    expect((await call(expired.token).expect(401)).body).toEqual(UNAUTHORIZED);
  });

  it('npm run token: create prints the token once (it works), list never shows it, revoke ends it', async () => {
    const store = new ApiTokenStore(t.app.get(DataSource).getRepository(ApiTokenEntity));
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => tokenCommand(argv, store, (l) => out.push(l), (l) => err.push(l));
    expect(await run('create', '--email', 'CLI@example.com', '--name', 'laptop', '--expires', '90d')).toBe(0);
    const token = out[0];
    expect(out).toEqual([expect.stringMatching(/^amt_[A-Za-z0-9_-]{43}$/)]);
    expect(err.join('\n')).not.toContain(token);
    const call = () => request(t.baseUrl).get('/v1/lookers').query({ email: 'cli@example.com' }).set('Authorization', `Bearer ${token}`);
    await call().expect(200);
    out.length = 0;
    expect(await run('list')).toBe(0);
    const line = out.find((l) => l.includes('cli@example.com')) as string;
    expect(line).toMatch(/^[0-9a-f-]{36} {2}cli@example\.com {2}laptop {2}live {2}created \S+ {2}expires \S+ {2}last used /);
    expect(out.join('\n')).not.toContain(token);
    const id = line.split('  ')[0];
    expect(await run('revoke', id)).toBe(0);
    expect(await run('revoke', id)).toBe(1);
    await call().expect(401);
    err.length = 0;
    expect(await run('create', '--email', 'not-an-email')).toBe(1);
    expect(await run('create', '--email', 'a@example.com', '--expires', 'soon')).toBe(1);
    expect(await run('nothing')).toBe(1);
    expect(err).toEqual(['--email must be an e-mail address', '--expires must be a number of days or hours, such as 90d or 12h', TOKEN_USAGE]);
  });

  it('market-wide routes stay open without a token (AUTH_PUBLIC_MARKET defaults to 1); health is always open', async () => {
    await request(t.baseUrl).get('/health').expect(200);
    await request(t.baseUrl).get('/v1/funding-rates').expect(200);
    const prices = await openStream(`${t.baseUrl}/v1/realtime/prices`);
    expect(prices.status).toBe(200);
    // A write to market-wide data needs some token.
    expect((await request(t.baseUrl).post('/v1/opportunity-history/import').send([]).expect(401)).body).toEqual(UNAUTHORIZED);
  });

  it('a stream ticket opens one stream, once, for its token\'s e-mail', async () => {
    const issued = await request(t.baseUrl).post('/v1/auth/stream-ticket').set('Authorization', `Bearer ${ownerToken}`).expect(201);
    bodies.push(issued.text);
    expect(issued.body).toEqual({ ticket: expect.stringMatching(/^amk_[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(Number) });
    expect(issued.body.expiresAt - Date.now()).toBeGreaterThan(55_000);
    expect(issued.body.expiresAt - Date.now()).toBeLessThanOrEqual(60_000);
    // The looker of the table above was deleted by its own test.
    const looker = (await request(t.baseUrl).post('/v1/lookers').set('Authorization', `Bearer ${ownerToken}`).send({ email: OWNER, ...lookerBody }).expect(201)).body.id as string;
    const url = `${t.baseUrl}/v1/lookers/${looker}/stream?ticket=${issued.body.ticket}`;
    const client = new SseTestClient(url);
    await client.opened;
    client.source.close();
    const again = await openStream(url);
    expect([again.status, JSON.parse(again.body)]).toEqual([401, UNAUTHORIZED]);
    // Another e-mail's ticket does not open the owner's looker.
    const others = (await request(t.baseUrl).post('/v1/auth/stream-ticket').set('Authorization', `Bearer ${otherToken}`).expect(201)).body.ticket as string;
    const refused = await openStream(`${t.baseUrl}/v1/lookers/${looker}/stream?ticket=${others}`);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([403, FORBIDDEN]);
    // A ticket is no bearer token, and works on streams only.
    const spare = (await request(t.baseUrl).post('/v1/auth/stream-ticket').set('Authorization', `Bearer ${ownerToken}`).expect(201)).body.ticket as string;
    await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER, ticket: spare }).expect(401);
    await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('Authorization', `Bearer ${spare}`).expect(401);
  });

  it('a ticket needs a token to be issued', async () => {
    expect((await request(t.baseUrl).post('/v1/auth/stream-ticket').expect(401)).body).toEqual(UNAUTHORIZED);
  });

  it(`failed authentications: ${FAILED_PER_MINUTE} a minute per client IP, then 429 before any token is looked at`, async () => {
    const attempt = (header: string) => request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('X-Forwarded-For', FLOODER_IP).set('Authorization', header);
    for (let i = 0; i < FAILED_PER_MINUTE; i += 1) await attempt(`Bearer amt_${String(i).padStart(43, 'x')}`).expect(401);
    const refused = await attempt(`Bearer ${ownerToken}`).expect(429);
    expect(refused.body).toEqual({ statusCode: 429, message: 'too many failed authentications', error: 'Too Many Requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Other clients are not affected.
    await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('Authorization', `Bearer ${ownerToken}`).expect(200);
  });

  it('the arbitrage rate limit counts per token when the request authenticated', async () => {
    // Same IP, two tokens: each has its own budget (the default is 30 a minute).
    const call = (token: string) => request(t.baseUrl).get('/v1/funding-rates').set('Authorization', `Bearer ${token}`);
    const first = await call(ownerToken).expect(200);
    const second = await call(otherToken).expect(200);
    expect(Number(first.headers['x-ratelimit-remaining'])).toBe(Number(second.headers['x-ratelimit-remaining']));
  });

  it('last-used times are recorded in one batch, not per request', async () => {
    const repo = t.app.get(DataSource).getRepository(ApiTokenEntity);
    const owner = await repo.findOneByOrFail({ email: OWNER, name: 'laptop' });
    expect(owner.lastUsedAt).toBeNull();
    await t.app.get(ApiTokensService).flush();
    expect((await repo.findOneByOrFail({ id: owner.id })).lastUsedAt).toBeInstanceOf(Date);
  });

  it('the table holds no token, and no token or ticket reaches a log line or an answer', async () => {
    const rows = await t.app.get(DataSource).query<{ token_lookup: string; token_salt: string; token_hash: string }[]>('SELECT * FROM api_tokens');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(ownerToken);
    // Each row: a 12-character lookup, its own salt, and scrypt(token, salt), not a bare digest.
    const owner = rows.find((r) => r.token_lookup === lookupOf(ownerToken));
    expect(owner?.token_hash).toBe(await scryptHash(ownerToken, owner?.token_salt ?? ''));
    expect(owner?.token_hash).not.toBe(hashSecret(ownerToken));
    expect(new Set(rows.map((r) => r.token_salt)).size).toBe(rows.length);
    await vi.waitFor(() => expect(logs.some((l) => l.includes('"msg":"request"'))).toBe(true));
    const secrets = [ownerToken, otherToken];
    for (const line of logs) {
      for (const s of secrets) expect(line).not.toContain(s);
      expect(line).not.toMatch(/am[tk]_[A-Za-z0-9_-]{43}/);
    }
    for (const body of bodies) for (const s of secrets) expect(body).not.toContain(s);
  });
});

describe('AUTH_MODE=token with AUTH_PUBLIC_MARKET=0: market-wide routes need a token too', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ AUTH_MODE: 'token', AUTH_PUBLIC_MARKET: '0', SSE_MAX_PER_IP: '1', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    token = (await new ApiTokenStore(t.app.get(DataSource).getRepository(ApiTokenEntity)).create({ email: 'market@example.com' })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('funding and the price stream: 401 without a token, open with one or with a ticket; health stays open', async () => {
    expect((await request(t.baseUrl).get('/v1/funding-rates').expect(401)).body).toEqual(UNAUTHORIZED);
    await request(t.baseUrl).get('/v1/funding-rates').set('Authorization', `Bearer ${token}`).expect(200);
    expect((await fetch(`${t.baseUrl}/v1/realtime/prices`)).status).toBe(401);
    const { ticket } = (await request(t.baseUrl).post('/v1/auth/stream-ticket').set('Authorization', `Bearer ${token}`).expect(201)).body as { ticket: string };
    const client = new SseTestClient(`${t.baseUrl}/v1/realtime/prices?ticket=${ticket}`);
    await client.opened;
    client.source.close();
    await request(t.baseUrl).get('/health').expect(200);
  });

  it('the open-stream cap counts per token: one IP, two tokens, one stream each; a second for the same token is 429', async () => {
    const second = (await new ApiTokenStore(t.app.get(DataSource).getRepository(ApiTokenEntity)).create({ email: 'market2@example.com' })).token;
    const open = (bearer: string) => new SseTestClient(`${t.baseUrl}/v1/realtime/prices`, [], { Authorization: `Bearer ${bearer}` });
    const a = open(token);
    const b = open(second);
    await Promise.all([a.opened, b.opened]);
    const refused = await fetch(`${t.baseUrl}/v1/realtime/prices`, { headers: { Authorization: `Bearer ${token}` } });
    expect([refused.status, await refused.json()]).toEqual([429, { statusCode: 429, message: 'too many open streams', error: 'Too Many Requests' }]);
    a.source.close();
    b.source.close();
  });
});

describe('AUTH_MODE=none (the default): no credential is asked and none is looked at', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a user-scoped route answers without a token, and a stray header or ticket changes nothing', async () => {
    await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).expect(200);
    await request(t.baseUrl).get('/v1/lookers').query({ email: OWNER }).set('Authorization', 'Bearer nonsense').expect(200);
    const ticket = await request(t.baseUrl).post('/v1/auth/stream-ticket').expect(404);
    expect(ticket.body).toEqual({ statusCode: 404, message: 'stream tickets exist only when AUTH_MODE is token', error: 'Not Found' });
  });
});
