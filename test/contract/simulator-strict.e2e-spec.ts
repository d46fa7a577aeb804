import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { sleep, until as untilShared } from '../utils/wait.js';

/**
 * Strict mode seen from raw websocket and HTTP clients (no ccxt in between): each venue's limit
 * is enforced the way the venue does it, and every breach is counted on GET /_sim/violations.
 * Venue durations are scaled down with PUT /_sim/strict so that a 24 h lifetime or a 2 min
 * ping rule is reached in milliseconds.
 */
let sim: RunningSimulator;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BNB', 'TRX'], walk: false, strict: true });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await call('PUT', '/_sim/strict', { enabled: true, timeScale: 1, lifetimeScale: 1, restScale: 1 });
  await call('POST', '/_sim/maintenance', { enabled: false });
  await call('DELETE', '/_sim/violations');
});

afterAll(async () => {
  await sim.close();
});

interface Reply {
  status: number;
  json: unknown;
  headers: Headers;
}

async function call(method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${sim.url}${path}`, {
    method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

interface RawClient {
  socket: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

async function open(path: string, options: { autoPong?: boolean } = {}): Promise<RawClient> {
  const socket = new WebSocket(`${sim.url.replace('http', 'ws')}${path}`, { autoPong: options.autoPong ?? true });
  sockets.push(socket);
  const messages: string[] = [];
  socket.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, messages, closed };
}

/** Whether `check` holds within `timeoutMs` (the shared until, polling every 5 ms). */
const until = (check: () => boolean, timeoutMs: number): Promise<boolean> =>
  untilShared(check, (ok) => ok, timeoutMs, 5).then(() => true, () => false);

async function violations(): Promise<{ total: number; byExchange: Record<string, Record<string, number>> }> {
  return (await call('GET', '/_sim/violations')).json as { total: number; byExchange: Record<string, Record<string, number>> };
}

const BYBIT_SPOT = '/stream.bybit.com/v5/public/spot';
const BINANCE_SPOT = '/stream.binance.com:9443/ws';
const OKX = '/ws.okx.com:8443/ws/v5/public';
const BITGET = '/ws.bitget.com/v2/ws/public';
const TICKERS = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BNB', 'TRX'];

describe('websocket limits', () => {
  it('bybit spot: 10 args in one subscribe are served, 11 are refused with bybit\'s error and counted', async () => {
    const c = await open(BYBIT_SPOT);
    c.socket.send(JSON.stringify({ op: 'subscribe', req_id: 'a', args: TICKERS.slice(0, 10).map((t) => `orderbook.1.${t}USDT`) }));
    expect(await until(() => c.messages.some((m) => m.includes('"success":true')), 1_000)).toBe(true);
    c.socket.send(JSON.stringify({ op: 'subscribe', req_id: 'b', args: TICKERS.slice(0, 11).map((t) => `orderbook.1.${t}USDT`) }));
    expect(await until(() => c.messages.some((m) => m.includes('"req_id":"b"')), 1_000)).toBe(true);
    expect(JSON.parse(c.messages.find((m) => m.includes('"req_id":"b"')) ?? '{}')).toMatchObject({ success: false, ret_msg: 'error:args size >10', op: 'subscribe' });
    expect((await violations()).byExchange.bybit).toEqual({ 'args-per-request': 1 });
  });

  it('binance spot: a 6th message within a second closes the connection (1008) and is counted', async () => {
    const c = await open(BINANCE_SPOT);
    for (let i = 0; i < 6; i++) c.socket.send(JSON.stringify({ method: 'SUBSCRIBE', params: [`${TICKERS[i]?.toLowerCase()}usdt@bookTicker`], id: i }));
    expect(await c.closed).toEqual({ code: 1008, reason: 'Too many requests' });
    expect((await violations()).byExchange.binance).toEqual({ 'messages-per-second': 1 });
  });

  it('binance: sends protocol pings and terminates a client that does not answer them', async () => {
    await call('PUT', '/_sim/strict', { timeScale: 0.005 }); // ping every 100 ms, pong due within 300 ms
    const answering = await open(BINANCE_SPOT);
    const pings: number[] = [];
    answering.socket.on('ping', () => pings.push(Date.now()));
    const silent = await open(BINANCE_SPOT, { autoPong: false });
    expect((await silent.closed).code).toBe(1006);
    expect(pings.length).toBeGreaterThanOrEqual(2);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    expect((await violations()).byExchange.binance).toEqual({ 'missed-pong': 1 });
  });

  it('bitget: drops a client that sends no text ping for 2 min (scaled), keeps one that pings', async () => {
    await call('PUT', '/_sim/strict', { timeScale: 0.002 }); // 240 ms
    const pinging = await open(BITGET);
    const timer = setInterval(() => pinging.socket.send('ping'), 50);
    const quiet = await open(BITGET);
    expect((await quiet.closed).code).toBe(1006);
    clearInterval(timer);
    expect(pinging.socket.readyState).toBe(WebSocket.OPEN);
    expect(pinging.messages).toContain('pong');
    expect((await violations()).byExchange.bitget).toEqual({ idle: 1 });
  });

  it('okx: a 4th connection within a second is refused (429); the 481st subscribe in an hour gets 60014 and a close', async () => {
    await open(OKX);
    await open(OKX);
    await open(OKX);
    await expect(open(OKX)).rejects.toThrow('429');
    await sleep(1_000); // time: okx's 3 connections a second: the next second's budget
    const c = await open(OKX);
    for (let i = 0; i < 481; i++) c.socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'bbo-tbt', instId: 'BTC-USDT' }] }));
    expect((await c.closed).code).toBe(1008);
    expect(c.messages.some((m) => m.includes('"code":"60014"'))).toBe(true);
    expect((await violations()).byExchange.okx).toEqual({ 'connections-per-window': 1, 'subscribes-per-hour': 1 });
  });

  it('closes connections at the venue\'s forced lifetime (binance 24 h, scaled) without counting a violation', async () => {
    await call('PUT', '/_sim/strict', { lifetimeScale: 0.000005 }); // 432 ms
    const c = await open(BINANCE_SPOT);
    const opened = Date.now();
    expect(await c.closed).toEqual({ code: 1000, reason: 'connection lifetime reached' });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(400);
    expect((await violations()).total).toBe(0);
  });

  it('SIM_STRICT off (enabled false): the same over-limit subscribe is served', async () => {
    await call('PUT', '/_sim/strict', { enabled: false });
    const c = await open(BYBIT_SPOT);
    c.socket.send(JSON.stringify({ op: 'subscribe', req_id: 'c', args: TICKERS.map((t) => `orderbook.1.${t}USDT`) }));
    expect(await until(() => c.messages.some((m) => m.includes('"success":true')), 1_000)).toBe(true);
    expect((await violations()).total).toBe(0);
  });
});

describe('REST limits, maintenance and delisting', () => {
  it('binance answers 429 -1003 with Retry-After past its weight, then 418 to a client that does not wait', async () => {
    await call('PUT', '/_sim/strict', { restScale: 0.01 }); // 60 weight a minute: 3 exchangeInfo calls
    for (let i = 0; i < 3; i++) expect((await call('GET', '/api.binance.com/api/v3/exchangeInfo')).status).toBe(200);
    const limited = await call('GET', '/api.binance.com/api/v3/exchangeInfo');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: -1003 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await sleep(1_000); // time: past the grace for requests already in flight
    const banned = await call('GET', '/api.binance.com/api/v3/exchangeInfo');
    expect(banned.status).toBe(418);
    expect(banned.headers.get('retry-after')).toBe('120');
    expect((await violations()).byExchange.binance).toEqual({ 'rest-rate-limit': 1, 'rest-ignored-retry-after': 1 });
  });

  it('maintenance: REST 503 with the venue\'s code, sockets closed (1001), new ones refused until it ends', async () => {
    const c = await open(OKX);
    expect((await call('POST', '/_sim/maintenance', { exchange: 'okx', enabled: true })).json).toEqual({ exchange: 'okx', maintenance: true, closed: 1 });
    expect((await c.closed).code).toBe(1001);
    const rest = await call('GET', '/www.okx.com/api/v5/public/instruments?instType=SPOT');
    expect(rest).toMatchObject({ status: 503, json: { code: '50001' } });
    await expect(open(OKX)).rejects.toThrow('503');
    expect((await call('GET', '/api.bybit.com/v5/market/time')).status).toBe(200);
    await call('POST', '/_sim/maintenance', { exchange: 'okx', enabled: false });
    expect((await call('GET', '/www.okx.com/api/v5/public/instruments?instType=SPOT')).status).toBe(200);
    await sleep(1_000); // time: okx's 3 connections a second
    await open(OKX);
    expect((await violations()).total).toBe(0);
  });

  it('delisting: kept in that exchange\'s markets with its status, a new subscribe is refused, a running one goes silent', async () => {
    const c = await open(OKX);
    c.socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'bbo-tbt', instId: 'SOL-USDT' }] }));
    expect(await until(() => c.messages.some((m) => m.includes('"asks"')), 1_000)).toBe(true);
    expect((await call('POST', '/_sim/delist', { exchange: 'okx', ticker: 'SOL-USDT', market: 'SPOT', delisted: true })).json)
      .toEqual({ exchange: 'okx', ticker: 'SOL-USDT', market: 'SPOT', delisted: true, changed: 1 });
    const spot = (await call('GET', '/www.okx.com/api/v5/public/instruments?instType=SPOT')).json as { data: { instId: string; state: string }[] };
    expect(spot.data.find((d) => d.instId === 'SOL-USDT')?.state).toBe('suspend');
    const swap = (await call('GET', '/www.okx.com/api/v5/public/instruments?instType=SWAP')).json as { data: { instId: string; state: string }[] };
    expect(swap.data.find((d) => d.instId === 'SOL-USDT-SWAP')?.state).toBe('live');
    const before = c.messages.length;
    await sleep(1_200); // time: nothing may arrive: a re-send would come within a second
    expect(c.messages.slice(before).filter((m) => m.includes('SOL-USDT'))).toEqual([]);
    c.socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'bbo-tbt', instId: 'SOL-USDT' }] }));
    expect(await until(() => c.messages.some((m) => m.includes('"code":"60018"')), 1_000)).toBe(true);
    await call('POST', '/_sim/delist', { exchange: 'okx', ticker: 'SOL-USDT', market: 'SPOT', delisted: false });
  });

  it('validates the strict, maintenance and delist bodies (400 naming the field)', async () => {
    expect(await call('PUT', '/_sim/strict', { timeScale: -1 })).toMatchObject({
      status: 400, json: { statusCode: 400, message: 'timeScale must be a number greater than 0 and at most 10', error: 'Bad Request' },
    });
    expect(await call('POST', '/_sim/maintenance', {})).toMatchObject({ status: 400, json: { message: 'enabled is required' } });
    expect(await call('POST', '/_sim/delist', { exchange: 'okx', ticker: 'NOPE-USDT', delisted: true })).toMatchObject({
      status: 400, json: { message: 'ticker NOPE-USDT is not simulated' },
    });
    expect((await call('GET', '/_sim/strict')).json).toEqual({ enabled: true, timeScale: 1, lifetimeScale: 1, restScale: 1 });
    expect((await call('PATCH', '/_sim/strict')).status).toBe(405);
  });
});
