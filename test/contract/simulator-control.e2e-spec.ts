import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EXCHANGE_NAMES } from '../../src/market-model/exchanges.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { sleep, until as untilShared } from '../utils/wait.js';

/**
 * The simulator's control API over HTTP, and its fault injection seen from a raw websocket
 * client (pause, silence, stall, re-sends), without ccxt in between.
 */
let sim: RunningSimulator;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH'], walk: false });
});

afterAll(async () => {
  for (const s of sockets) s.terminate();
  await sim.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${sim.url}${path}`, {
    method, headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

interface RawClient {
  socket: WebSocket;
  messages: string[];
}

async function connect(path: string, subscribe: unknown): Promise<RawClient> {
  const socket = new WebSocket(`${sim.url.replace('http', 'ws')}${path}`);
  sockets.push(socket);
  const messages: string[] = [];
  socket.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify(subscribe));
  await until(() => messages.length >= 2, 1_000);
  return { socket, messages };
}

/** Whether `check` holds within `timeoutMs` (the shared until, polling every 5 ms). */
const until = (check: () => boolean, timeoutMs: number): Promise<boolean> =>
  untilShared(check, (ok) => ok, timeoutMs, 5).then(() => true, () => false);

const binanceSpot = (): Promise<RawClient> =>
  connect('/stream.binance.com:9443/ws', { method: 'SUBSCRIBE', params: ['btcusdt@bookTicker'], id: 1 });
const okxSpot = (): Promise<RawClient> =>
  connect('/ws.okx.com:8443/ws/v5/public', { op: 'subscribe', args: [{ channel: 'bbo-tbt', instId: 'BTC-USDT' }] });

describe('control API', () => {
  it('GET /_sim/state lists quotes, walk and per-exchange connections', async () => {
    const { status, json } = await call('GET', '/_sim/state');
    expect(status).toBe(200);
    const state = json as { quotes: unknown[]; walk: { enabled: boolean }; exchanges: Record<string, unknown> };
    expect(state.quotes).toHaveLength(2 * 2 * EXCHANGE_NAMES.length);
    expect(state.walk.enabled).toBe(false);
    // The simulator speaks every venue of the registry.
    expect(Object.keys(state.exchanges)).toEqual([...EXCHANGE_NAMES]);
  });

  it('answers 404 JSON for unknown paths; funding and networks are validated', async () => {
    expect(await call('GET', '/nope')).toEqual({ status: 404, json: { statusCode: 404, message: 'Cannot GET /nope', error: 'Not Found' } });
    expect(await call('PUT', '/_sim/funding', [])).toEqual({
      status: 400, json: { statusCode: 400, message: 'body must contain at least one funding rate', error: 'Bad Request' },
    });
    expect(await call('PUT', '/_sim/networks', [])).toEqual({
      status: 400, json: { statusCode: 400, message: 'body must contain at least one network', error: 'Bad Request' },
    });
  });

  it('rejects malformed bodies with 400', async () => {
    expect(await call('PUT', '/_sim/quotes', '{oops')).toEqual({ status: 400, json: { statusCode: 400, message: 'Invalid request body', error: 'Bad Request' } });
    const bad = await call('PUT', '/_sim/quotes', [{ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: -1, ask: 1 }]);
    expect(bad).toEqual({ status: 400, json: { statusCode: 400, message: '[0].bid must be a positive number', error: 'Bad Request' } });
  });

  it('starts and stops the random walk', async () => {
    expect((await call('POST', '/_sim/walk', { enabled: true, intervalMs: 100 })).json).toEqual({ enabled: true, intervalMs: 100, hold: [] });
    expect((await call('POST', '/_sim/walk', { enabled: false })).json).toEqual({ enabled: false, intervalMs: null, hold: [] });
  });

  it('leaves the held tickers where PUT /_sim/quotes set them while it moves the rest', async () => {
    const quotes = async (): Promise<{ ticker: string; bid: number }[]> =>
      ((await call('GET', '/_sim/state')).json as { quotes: { exchange: string; market: string; ticker: string; bid: number }[] }).quotes
        .filter((q) => q.exchange === 'okx' && q.market === 'SPOT');
    const bidOf = (list: { ticker: string; bid: number }[], ticker: string): number | undefined => list.find((q) => q.ticker === ticker)?.bid;
    await call('PUT', '/_sim/quotes', [{ exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 91_234.5, ask: 91_234.6 }]);
    expect((await call('POST', '/_sim/walk', { enabled: true, intervalMs: 50, hold: ['btc-usdt'] })).json).toEqual({ enabled: true, intervalMs: 50, hold: ['BTC-USDT'] });
    const eth = bidOf(await quotes(), 'ETH-USDT');
    try {
      // ETH moving shows the walk has stepped; BTC, held, is still where it was put.
      await untilShared(quotes, (list) => bidOf(list, 'ETH-USDT') !== eth, 2_000, 20);
      expect(bidOf(await quotes(), 'BTC-USDT')).toBe(91_234.5);
    } finally {
      expect((await call('POST', '/_sim/walk', { enabled: false, hold: [] })).json).toEqual({ enabled: false, intervalMs: null, hold: [] });
    }
    expect(await call('POST', '/_sim/walk', { enabled: true, hold: ['NOPE-USDT'] })).toEqual({
      status: 400, json: { statusCode: 400, message: 'hold[0] NOPE-USDT is not simulated', error: 'Bad Request' },
    });
    expect(await call('POST', '/_sim/walk', { enabled: true, hold: 'BTC-USDT' })).toEqual({
      status: 400, json: { statusCode: 400, message: 'hold must be an array of tickers', error: 'Bad Request' },
    });
  });
});

describe('pushes and faults on a raw websocket', () => {
  it('re-sends a subscribed quote at least every 2 s without changes', async () => {
    const { messages } = await binanceSpot();
    const before = messages.length;
    expect(await until(() => messages.length >= before + 1, 2_000)).toBe(true);
  });

  it('pause stops pushes for the market while the connection stays up', async () => {
    const { socket, messages } = await binanceSpot();
    await call('POST', '/_sim/pause', { exchange: 'binance', ticker: 'BTC-USDT', paused: true });
    const before = messages.length;
    await call('PUT', '/_sim/quotes', [{ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 90_000, ask: 90_000.1 }]);
    await sleep(1_200); // time: nothing may arrive: a paused quote would be re-sent within a second
    expect(messages.length).toBe(before);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    await call('POST', '/_sim/pause', { paused: false });
    expect(await until(() => messages.length > before, 1_500)).toBe(true);
    expect(messages.at(-1)).toContain('"b":"90000.0"');
  });

  it('silence keeps answering pings but sends no data', async () => {
    const { socket, messages } = await okxSpot();
    await call('POST', '/_sim/silence', { exchange: 'okx', silent: true });
    const before = messages.length;
    socket.send('ping');
    expect(await until(() => messages.includes('pong'), 500)).toBe(true);
    await sleep(1_100); // time: nothing but pongs may arrive: the once-a-second re-send is silenced
    expect(messages.filter((m) => m !== 'pong')).toHaveLength(before);
    await call('POST', '/_sim/silence', { silent: false });
    expect(await until(() => messages.length > before + 1, 1_500)).toBe(true);
  });

  it('stall answers neither protocol pings nor text pings, and sends no data', async () => {
    const binance = await binanceSpot();
    const okx = await okxSpot();
    await call('POST', '/_sim/stall', { stalled: true });
    let pongs = 0;
    binance.socket.on('pong', () => pongs++);
    binance.socket.ping();
    okx.socket.send('ping');
    await sleep(300); // time: no pong may arrive (a loopback pong takes about a millisecond)
    expect(pongs).toBe(0);
    expect(okx.messages).not.toContain('pong');
    await call('POST', '/_sim/stall', { stalled: false });
    binance.socket.ping();
    expect(await until(() => pongs === 1, 500)).toBe(true);
  });

  it('drop closes the connections of one exchange', async () => {
    const binance = await binanceSpot();
    const okx = await okxSpot();
    const closed = new Promise((resolve) => binance.socket.once('close', resolve));
    expect((await call('POST', '/_sim/drop', { exchange: 'binance' })).json).toMatchObject({ dropped: expect.any(Number) });
    await closed;
    expect(okx.socket.readyState).toBe(WebSocket.OPEN);
  });
});
