import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from '../utils/wait.js';

/**
 * Strict mode on the depth channels, seen from raw websocket clients: depth subscriptions count
 * against the same per-request, per-connection and per-hour rules as the bid/ask ones (okx counts
 * unsubscribes too), and GET /_sim/depth-subscriptions shows what is subscribed.
 */
let sim: RunningSimulator;
const sockets: WebSocket[] = [];
const BASES = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC', 'BNB', 'TRX'];
/** Enough more markets for binance USDⓈ-M's 1,024 streams on one connection. */
const EXTRA_BASES = Array.from({ length: 60 }, (_, i) => `COIN${i}`);
const BINANCE_STREAMS = ['depth@100ms', 'depth', 'depth@500ms', 'depth5', 'depth10', 'depth20', 'depth20@100ms', 'depth5@100ms', 'depth10@100ms', 'depth@250ms', 'depth5@500ms', 'depth10@500ms', 'depth20@500ms', 'depth5@250ms', 'depth10@250ms', 'depth20@250ms', 'bookTicker'];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: [...BASES, ...EXTRA_BASES], walk: false, strict: true });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await call('DELETE', '/_sim/violations');
});

afterAll(async () => {
  await sim.close();
});

async function call(method: string, path: string): Promise<unknown> {
  return (await fetch(`${sim.url}${path}`, { method })).json();
}

interface RawClient {
  socket: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

async function open(path: string): Promise<RawClient> {
  const socket = new WebSocket(`${sim.url.replace('http', 'ws')}${path}`);
  sockets.push(socket);
  const messages: string[] = [];
  socket.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, messages, closed };
}

type Report = { byExchange: Record<string, Record<string, number>> };
const violations = async (): Promise<Report> => (await call('GET', '/_sim/violations')) as Report;
type Subs = Record<string, { market: string; ticker: string; channel: string; connections: number }[]>;
const depthSubscriptions = async (): Promise<Subs> => (await call('GET', '/_sim/depth-subscriptions')) as Subs;

describe('strict mode on depth channels', () => {
  it('bybit spot: 10 orderbook.50 topics in one subscribe are served and listed, 11 are refused and counted', async () => {
    const c = await open('/stream.bybit.com/v5/public/spot');
    c.socket.send(JSON.stringify({ op: 'subscribe', req_id: 'a', args: BASES.slice(0, 10).map((b) => `orderbook.50.${b}USDT`) }));
    await until(depthSubscriptions, (s) => s.bybit?.length === 10, 1_000, 10);
    expect((await depthSubscriptions()).bybit).toContainEqual({ market: 'SPOT', ticker: 'BTC-USDT', channel: 'orderbook.50', connections: 1 });
    expect(c.messages.filter((m) => m.includes('"type":"snapshot"') && m.includes('orderbook.50.'))).toHaveLength(10);
    c.socket.send(JSON.stringify({ op: 'subscribe', req_id: 'b', args: BASES.slice(0, 11).map((b) => `orderbook.50.${b}USDT`) }));
    await until(() => c.messages.find((m) => m.includes('"req_id":"b"')), (m) => m !== undefined, 1_000, 10);
    expect(JSON.parse(c.messages.find((m) => m.includes('"req_id":"b"')) ?? '{}')).toMatchObject({ success: false, ret_msg: 'error:args size >10' });
    expect((await violations()).byExchange.bybit).toEqual({ 'args-per-request': 1 });
  });

  it('okx: books subscribes and unsubscribes share the 480 an hour; the 481st request gets 60014 and a close', async () => {
    const c = await open('/ws.okx.com:8443/ws/v5/public');
    for (let n = 0; n < 480; n++) {
      const op = n % 2 === 0 ? 'subscribe' : 'unsubscribe';
      c.socket.send(JSON.stringify({ op, args: [{ channel: 'books', instId: `${BASES[n % 4] ?? 'BTC'}-USDT` }] }));
    }
    await until(() => c.messages.filter((m) => m.includes('"event":"unsubscribe"')).length, (n) => n === 240, 5_000, 10);
    expect(await violations()).toMatchObject({ byExchange: { okx: {} } });
    c.socket.send(JSON.stringify({ op: 'unsubscribe', args: [{ channel: 'books', instId: 'BTC-USDT' }] }));
    expect((await c.closed).code).toBe(1008);
    expect(c.messages.at(-1)).toContain('"code":"60014"');
    expect((await violations()).byExchange.okx).toEqual({ 'subscribes-per-hour': 1 });
  });

  it('binance usd-m: the 1,025th stream on one connection closes it (1008) and is counted (the USDⓈ-M page states 1,024)', async () => {
    const c = await open('/fstream.binance.com/public/ws');
    const streams = [...BASES, ...EXTRA_BASES].flatMap((b) => BINANCE_STREAMS.map((s) => `${b.toLowerCase()}usdt@${s}`)).slice(0, 1_025);
    c.socket.send(JSON.stringify({ method: 'SUBSCRIBE', params: streams.slice(0, 1_024), id: 1 }));
    await until(() => c.messages.some((m) => m.includes('"id":1')), (ok) => ok, 1_000, 10);
    expect(await violations()).toMatchObject({ byExchange: { binance: {} } });
    c.socket.send(JSON.stringify({ method: 'SUBSCRIBE', params: streams.slice(1_024), id: 2 }));
    expect(await c.closed).toEqual({ code: 1008, reason: 'Too many requests' });
    expect((await violations()).byExchange.binance).toEqual({ 'subscriptions-per-connection': 1 });
  });

  it('lists subscriptions per exchange and forgets them on unsubscribe and on close', async () => {
    const gate = await open('/fx-ws.gateio.ws/v4/ws/usdt');
    gate.socket.send(JSON.stringify({ time: 1, channel: 'futures.order_book_update', event: 'subscribe', payload: ['ETH_USDT', '100ms', '20'] }));
    await until(depthSubscriptions, (s) => s.gate?.length === 1, 1_000, 10);
    expect((await depthSubscriptions()).gate).toEqual([{ market: 'FUTURES', ticker: 'ETH-USDT', channel: 'order_book_update.20', connections: 1 }]);
    gate.socket.send(JSON.stringify({ time: 2, channel: 'futures.order_book_update', event: 'unsubscribe', payload: ['ETH_USDT', '100ms', '20'] }));
    await until(depthSubscriptions, (s) => s.gate?.length === 0, 1_000, 10);
    const bitget = await open('/ws.bitget.com/v2/ws/public');
    bitget.socket.send(JSON.stringify({ op: 'subscribe', args: [{ instType: 'SPOT', channel: 'books15', instId: 'SOLUSDT' }] }));
    await until(depthSubscriptions, (s) => s.bitget?.length === 1, 1_000, 10);
    bitget.socket.terminate();
    await until(depthSubscriptions, (s) => s.bitget?.length === 0, 1_000, 10);
  });
});
