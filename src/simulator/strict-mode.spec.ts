import { describe, expect, it } from 'vitest';
import type { RestRequest } from './venues/protocol.js';
import { isClientPing, marketOfConnection, StrictMode, subscribeRequestOf } from './strict-mode.js';
import { validateDelist, validateMaintenance, validateStrict } from './strict-validation.js';

const get = (host: string, path: string, query = ''): RestRequest => ({ method: 'GET', host, path, query: new URLSearchParams(query), headers: {} });

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('StrictMode REST limits', () => {
  it('binance funding history shares 500 calls per 5 minutes with fundingInfo: the 501st is refused and counted', () => {
    const c = clock();
    const strict = new StrictMode({}, c.now);
    for (let i = 0; i < 499; i++) expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/fundingRate', `symbol=S${i}`))).toBeUndefined();
    expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/fundingInfo'))).toBeUndefined();
    expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/fundingRate', 'symbol=X'))?.status).toBe(429);
    expect(strict.report().byExchange.binance).toEqual({ 'rest-rate-limit': 1 });
    c.advance(5 * 60_000);
    expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/fundingRate', 'symbol=X'))).toBeUndefined();
  });

  it('okx funding history: 10 calls per 2 s per instrument; another instrument has its own', () => {
    const strict = new StrictMode({}, clock().now);
    const history = (instId: string) => get('www.okx.com', '/api/v5/public/funding-rate-history', `instId=${instId}`);
    for (let i = 0; i < 10; i++) expect(strict.admitRest('okx', history('BTC-USDT-SWAP'))).toBeUndefined();
    expect(strict.admitRest('okx', history('ETH-USDT-SWAP'))).toBeUndefined();
    expect(strict.admitRest('okx', history('BTC-USDT-SWAP'))?.status).toBe(429);
  });

  it('binance spot: 6,000 weight a minute; the 76th 24 h ticker list (75 × weight 80 = 6,000) answers 429 -1003 with Retry-After', () => {
    const c = clock();
    const strict = new StrictMode({}, c.now);
    const call = get('api.binance.com', '/api/v3/ticker/24hr');
    for (let i = 0; i < 75; i++) expect(strict.admitRest('binance', call)).toBeUndefined();
    c.advance(30_000);
    const refused = strict.admitRest('binance', call);
    expect(refused?.status).toBe(429);
    expect(refused?.body).toMatchObject({ code: -1003 });
    expect(refused?.headers['retry-after']).toBe('30');
    expect(strict.report().byExchange.binance).toEqual({ 'rest-rate-limit': 1 });
  });

  it('binance: calling again before Retry-After is a 418 ban; after the ban the new window serves', () => {
    const c = clock();
    const strict = new StrictMode({ restScale: 0.001 }, c.now); // 6 weight a minute
    const call = get('api.binance.com', '/api/v3/ping');
    for (let i = 0; i < 6; i++) expect(strict.admitRest('binance', call)).toBeUndefined();
    expect(strict.admitRest('binance', call)?.status).toBe(429);
    // Within a second of the 429 a request was already in flight: 429 again, not yet a ban.
    c.advance(999);
    expect(strict.admitRest('binance', call)?.status).toBe(429);
    c.advance(1);
    const banned = strict.admitRest('binance', call);
    expect(banned?.status).toBe(418);
    expect(banned?.headers['retry-after']).toBe('120');
    c.advance(120_000);
    expect(strict.admitRest('binance', call)).toBeUndefined();
    expect(strict.report().byExchange.binance).toEqual({ 'rest-rate-limit': 1, 'rest-ignored-retry-after': 1 });
  });

  it('spot and futures weights are separate buckets (USDⓈ-M: 2,400 a minute)', () => {
    const strict = new StrictMode({}, clock().now);
    for (let i = 0; i < 60; i++) expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/ticker/24hr'))).toBeUndefined();
    expect(strict.admitRest('binance', get('fapi.binance.com', '/fapi/v1/ticker/24hr'))?.status).toBe(429);
    expect(strict.admitRest('binance', get('api.binance.com', '/api/v3/exchangeInfo'))).toBeUndefined();
  });

  it('bybit answers 403 "access too frequent" past 600 requests in 5 s; okx counts per endpoint (20 per 2 s)', () => {
    const strict = new StrictMode({}, clock().now);
    for (let i = 0; i < 600; i++) strict.admitRest('bybit', get('api.bybit.com', i % 2 ? '/v5/market/tickers' : '/v5/market/instruments-info'));
    expect(strict.admitRest('bybit', get('api.bybit.com', '/v5/market/time'))).toMatchObject({ status: 403, body: { retCode: 10018 } });
    for (let i = 0; i < 20; i++) expect(strict.admitRest('okx', get('www.okx.com', '/api/v5/market/tickers'))).toBeUndefined();
    expect(strict.admitRest('okx', get('www.okx.com', '/api/v5/market/tickers'))).toMatchObject({ status: 429, body: { code: '50011' } });
    expect(strict.admitRest('okx', get('www.okx.com', '/api/v5/public/instruments'))).toBeUndefined();
  });

  it('binance bans grow: each 418 twice as long as the one before (2, 4, 8 minutes ...), up to 3 days', () => {
    const c = clock();
    const strict = new StrictMode({ restScale: 0.001 }, c.now);
    const call = get('api.binance.com', '/api/v3/ping');
    const bans: string[] = [];
    for (let round = 0; round < 3; round++) {
      strict.forcedRestLimit.add('binance');
      expect(strict.admitRest('binance', call)?.status).toBe(429);
      c.advance(1_000);
      const banned = strict.admitRest('binance', call);
      expect(banned?.status).toBe(418);
      bans.push(banned?.headers['retry-after'] ?? '');
      c.advance(Number(banned?.headers['retry-after']) * 1000);
    }
    expect(bans).toEqual(['120', '240', '480']);
  });

  it('only binance sends Retry-After: bybit 403, okx 429 50011, gate 429, bitget 429 carry none', () => {
    const strict = new StrictMode({}, clock().now);
    const calls = {
      bybit: get('api.bybit.com', '/v5/market/tickers'),
      okx: get('www.okx.com', '/api/v5/market/tickers'),
      gate: get('api.gateio.ws', '/api/v4/spot/tickers'),
      bitget: get('api.bitget.com', '/api/v2/spot/market/tickers'),
    } as const;
    const answers = Object.entries(calls).map(([exchange, call]) => {
      strict.forcedRestLimit.add(exchange as keyof typeof calls);
      const reply = strict.admitRest(exchange as keyof typeof calls, call);
      return [exchange, reply?.status, reply?.headers];
    });
    expect(answers).toEqual([
      ['bybit', 403, {}],
      ['okx', 429, {}],
      ['gate', 429, {}],
      ['bitget', 429, {}],
    ]);
  });

  it('bybit needs 10 minutes without a call after its 403; a call within them starts them over', () => {
    const c = clock();
    const strict = new StrictMode({}, c.now);
    const call = get('api.bybit.com', '/v5/market/tickers');
    strict.forcedRestLimit.add('bybit');
    expect(strict.admitRest('bybit', call)).toMatchObject({ status: 403, body: { retMsg: 'access too frequent' } });
    c.advance(9 * 60_000);
    expect(strict.admitRest('bybit', call)?.status).toBe(403);
    expect(strict.report().byExchange.bybit).toEqual({ 'rest-rate-limit': 1, 'rest-ignored-retry-after': 1 });
    c.advance(9 * 60_000);
    expect(strict.admitRest('bybit', call)?.status).toBe(403);
    c.advance(10 * 60_000);
    expect(strict.admitRest('bybit', call)).toBeUndefined();
  });

  it('okx, gate and bitget lift the limit when its window ends (2 s, 10 s, 1 s)', () => {
    const c = clock();
    const strict = new StrictMode({}, c.now);
    const calls = [
      ['okx', get('www.okx.com', '/api/v5/market/tickers'), 2_000],
      ['gate', get('api.gateio.ws', '/api/v4/spot/tickers'), 10_000],
      ['bitget', get('api.bitget.com', '/api/v2/spot/market/tickers'), 1_000],
    ] as const;
    for (const [exchange, call, windowMs] of calls) {
      strict.forcedRestLimit.add(exchange);
      expect(strict.admitRest(exchange, call)?.status).toBe(429);
      c.advance(windowMs - 1);
      expect(strict.admitRest(exchange, call)?.status, exchange).toBe(429);
      c.advance(1);
      expect(strict.admitRest(exchange, call), exchange).toBeUndefined();
    }
  });

  it('timeScale shortens the window; off (enabled false) nothing is limited; maintenance answers either way', () => {
    const c = clock();
    const strict = new StrictMode({ timeScale: 0.01, restScale: 0.05 }, c.now); // gate: 10 per 100 ms
    const call = get('api.gateio.ws', '/api/v4/spot/tickers');
    for (let i = 0; i < 10; i++) strict.admitRest('gate', call);
    expect(strict.admitRest('gate', call)?.status).toBe(429);
    c.advance(100);
    expect(strict.admitRest('gate', call)).toBeUndefined();
    strict.settings = { ...strict.settings, enabled: false };
    for (let i = 0; i < 50; i++) expect(strict.admitRest('gate', call)).toBeUndefined();
    strict.maintenance.add('gate');
    expect(strict.admitRest('gate', call)).toMatchObject({ status: 503, body: { label: 'SERVER_ERROR' } });
  });
});

describe('StrictMode connections', () => {
  it('okx accepts 3 new connections a second, refuses the 4th with 429 and counts it', () => {
    const c = clock();
    const strict = new StrictMode({}, c.now);
    for (let i = 0; i < 3; i++) expect(strict.admitConnection('okx', i)).toEqual({ ok: true });
    expect(strict.admitConnection('okx', 3)).toMatchObject({ ok: false, status: 429 });
    c.advance(1_000);
    expect(strict.admitConnection('okx', 3)).toEqual({ ok: true });
    expect(strict.report()).toMatchObject({ total: 1, byExchange: { okx: { 'connections-per-window': 1 } } });
  });

  it('bitget refuses the 101st open connection; maintenance refuses with 503 even when strict mode is off', () => {
    const strict = new StrictMode({}, clock().now);
    expect(strict.admitConnection('bitget', 100)).toMatchObject({ ok: false, status: 429 });
    strict.settings = { ...strict.settings, enabled: false };
    strict.maintenance.add('bitget');
    expect(strict.admitConnection('bitget', 0)).toMatchObject({ ok: false, status: 503 });
  });

  it('resetViolations empties the report', () => {
    const strict = new StrictMode({}, clock().now);
    strict.record('gate', 'idle', 'x');
    expect(strict.report().total).toBe(1);
    strict.resetViolations();
    expect(strict.report()).toMatchObject({ total: 0, recent: [] });
  });
});

describe('frame classification', () => {
  it('reads a subscribe request in every venue shape, with its number of args', () => {
    expect(subscribeRequestOf('{"method":"SUBSCRIBE","params":["btcusdt@bookTicker","ethusdt@bookTicker"],"id":1}')?.args).toBe(2);
    expect(subscribeRequestOf('{"op":"subscribe","args":["orderbook.1.BTCUSDT"],"req_id":"1"}')?.args).toBe(1);
    expect(subscribeRequestOf('{"op":"subscribe","args":[{"channel":"bbo-tbt","instId":"BTC-USDT"}]}')?.args).toBe(1);
    expect(subscribeRequestOf('{"event":"subscribe","channel":"spot.book_ticker","payload":["BTC_USDT","ETH_USDT","SOL_USDT"]}')?.args).toBe(3);
    expect(subscribeRequestOf('{"op":"unsubscribe","args":["x"]}')).toMatchObject({ args: 1, unsubscribe: true });
    expect(subscribeRequestOf('{"op":"subscribe","args":["x"]}')).toMatchObject({ unsubscribe: false });
    expect(subscribeRequestOf('{"op":"login","args":["x"]}')).toBeUndefined();
    expect(subscribeRequestOf('ping')).toBeUndefined();
    expect(subscribeRequestOf('{not json')).toBeUndefined();
  });

  it('tells application pings', () => {
    expect(isClientPing('ping')).toBe(true);
    expect(isClientPing('{"req_id":"1","op":"ping"}')).toBe(true);
    expect(isClientPing('{"time":1,"channel":"spot.ping"}')).toBe(true);
    expect(isClientPing('{"op":"subscribe","args":["ping"]}')).toBe(false);
  });

  it('knows the market of a connection from the URL the client dialled', () => {
    expect(marketOfConnection('binance', 'fstream.binance.com', '/public/ws/0')).toBe('FUTURES');
    expect(marketOfConnection('binance', 'stream.binance.com:9443', '/ws/0')).toBe('SPOT');
    expect(marketOfConnection('bybit', 'stream.bybit.com', '/v5/public/linear')).toBe('FUTURES');
    expect(marketOfConnection('gate', 'fx-ws.gateio.ws', '/v4/ws/usdt')).toBe('FUTURES');
  });
});

describe('strict control validation', () => {
  it('PUT /_sim/strict: at least one member, booleans and scales in (0, 10]', () => {
    expect(validateStrict({ timeScale: 0.01 })).toEqual({ ok: true, value: { timeScale: 0.01 } });
    expect(validateStrict({ enabled: false, lifetimeScale: 0.0001 })).toEqual({ ok: true, value: { enabled: false, lifetimeScale: 0.0001 } });
    expect(validateStrict({})).toMatchObject({ ok: false, message: 'body must set enabled, timeScale, lifetimeScale, restScale or several' });
    expect(validateStrict({ enabled: 'yes' })).toMatchObject({ ok: false, message: 'enabled must be a boolean' });
    expect(validateStrict({ restScale: 0 })).toMatchObject({ ok: false, message: 'restScale must be a number greater than 0 and at most 10' });
    expect(validateStrict([])).toMatchObject({ ok: false, message: 'Invalid request body' });
  });

  it('POST /_sim/maintenance and POST /_sim/delist name the bad field', () => {
    expect(validateMaintenance({ exchange: 'okx', enabled: true })).toEqual({ ok: true, value: { exchange: 'okx', value: true } });
    expect(validateMaintenance({ enabled: 'on' })).toMatchObject({ ok: false, message: 'enabled must be a boolean' });
    expect(validateMaintenance({ exchange: 'kraken', enabled: true })).toMatchObject({ ok: false, message: expect.stringMatching(/^exchange must be one of/) as unknown });
    const known = new Set(['BTC-USDT']);
    expect(validateDelist({ exchange: 'okx', ticker: 'btcusdt', delisted: true }, known)).toEqual({ ok: true, value: { exchange: 'okx', ticker: 'BTC-USDT', delisted: true } });
    expect(validateDelist({ ticker: 'BTC-USDT', delisted: true }, known)).toMatchObject({ ok: false, message: 'exchange is required' });
    expect(validateDelist({ exchange: 'okx', delisted: true }, known)).toMatchObject({ ok: false, message: 'ticker is required' });
    expect(validateDelist({ exchange: 'okx', ticker: 'ZZZ-USDT', delisted: true }, known)).toMatchObject({ ok: false, message: 'ticker ZZZ-USDT is not simulated' });
    expect(validateDelist({ exchange: 'okx', ticker: 'BTC-USDT' }, known)).toMatchObject({ ok: false, message: 'delisted is required' });
    expect(validateDelist({ exchange: 'okx', ticker: 'BTC-USDT', market: 'MARGIN', delisted: true }, known)).toMatchObject({ ok: false, message: 'market must be SPOT or FUTURES' });
  });
});
