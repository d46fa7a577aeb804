import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from '../utils/wait.js';

/**
 * PUT /_sim/books over HTTP: a bad body is a 400 in the control API's error shape naming the first
 * bad field, a good one is applied at once, and its best levels become the quote that the bid/ask
 * channels push.
 */
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH'], walk: false });
});

afterAll(async () => {
  await sim.close();
});

async function put(body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${sim.url}/_sim/books`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const book = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bids: [[97_000, 0.5], [96_999.9, 1]], asks: [[97_000.2, 0.25], [97_000.5, 2]] };

describe('PUT /_sim/books', () => {
  it.each([
    [{ ...book, bids: [[97_000, 0.5], [97_000.1, 1]] }, '[0].bids must be in descending price order ([0].bids[1])'],
    [{ ...book, asks: [[96_999, 1]] }, '[0] is crossed: best bid 97000 must be below best ask 96999'],
    [{ ...book, ticker: 'DOGE-USDT' }, '[0].ticker DOGE-USDT is not simulated'],
    [{ ...book, asks: [[97_000.25, 1]] }, '[0].asks[0] price 97000.25 is not a multiple of the tick 0.1'],
  ])('answers 400 with the first bad field named: %j', async (item, message) => {
    expect(await put([item])).toEqual({ status: 400, json: { statusCode: 400, message, error: 'Bad Request' } });
  });

  it('applies a book at once: its best levels become the quote, pushed on the bid/ask channel', async () => {
    const socket = new WebSocket(`${sim.url.replace('http', 'ws')}/stream.binance.com:9443/ws`);
    const frames: string[] = [];
    socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@bookTicker'], id: 1 }));
    await until(() => frames.length, (n) => n >= 2, 1_000, 10);
    expect(await put([book])).toEqual({ status: 200, json: { applied: 1 } });
    expect(sim.state.get('binance', 'SPOT', 'BTC-USDT')).toMatchObject({ bid: 97_000, bidQty: 0.5, ask: 97_000.2, askQty: 0.25 });
    const read = await fetch(`${sim.url}/_sim/books?exchange=binance&market=SPOT&ticker=BTC-USDT`);
    expect(await read.json()).toMatchObject({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bids: book.bids, asks: book.asks });
    const bad = await fetch(`${sim.url}/_sim/books?exchange=binance&market=SPOT`);
    expect([bad.status, await bad.json()]).toEqual([400, { statusCode: 400, message: 'ticker is required', error: 'Bad Request' }]);
    const pushed = await until(() => frames.find((f) => f.includes('"b":"97000.0"')), (f) => f !== undefined, 1_000, 10);
    expect(JSON.parse(pushed ?? '{}')).toMatchObject({ s: 'BTCUSDT', b: '97000.0', B: '0.5', a: '97000.2', A: '0.25' });
    socket.terminate();
  });

  it('okx books: update ids run without a gap on a connection, across a pause and a second channel of the same book', async () => {
    const socket = new WebSocket(`${sim.url.replace('http', 'ws')}/ws.okx.com:8443/ws/v5/public`);
    const frames: { arg?: { channel: string }; action?: string; data?: { seqId: number; prevSeqId?: number }[] }[] = [];
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text.startsWith('{"arg"')) frames.push(JSON.parse(text) as (typeof frames)[number]);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const eth = { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' };
    socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'books', instId: 'ETH-USDT' }] }));
    await until(() => frames.length, (n) => n >= 1, 1_000, 10);
    await fetch(`${sim.url}/_sim/pause`, { method: 'POST', body: JSON.stringify({ ...eth, paused: true }) });
    expect(await put([{ ...eth, bids: [[3000, 1]], asks: [[3000.5, 1]] }])).toEqual({ status: 200, json: { applied: 1 } });
    await fetch(`${sim.url}/_sim/pause`, { method: 'POST', body: JSON.stringify({ ...eth, paused: false }) });
    socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'books5', instId: 'ETH-USDT' }] }));
    await until(() => frames.filter((f) => f.arg?.channel === 'books5').length, (n) => n >= 1, 1_000, 10);
    await put([{ ...eth, bids: [[3001, 1]], asks: [[3001.5, 1]] }]);
    await until(() => frames.filter((f) => f.arg?.channel === 'books').length, (n) => n >= 3, 1_000, 10);
    const books = frames.filter((f) => f.arg?.channel === 'books').map((f) => f.data?.[0]);
    for (let n = 1; n < books.length; n++) expect(books[n]?.prevSeqId).toBe(books[n - 1]?.seqId);
    socket.terminate();
  });
});
