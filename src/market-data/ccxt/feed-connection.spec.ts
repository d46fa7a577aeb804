import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionEvent } from '../market-data-source.js';
import type { CcxtBidAsk, FeedClient } from './feed-client.js';
import { FeedConnection, type QuoteSink } from './feed-connection.js';

type Quote = [index: number, bid: number, ask: number, bidQty: number, askQty: number, exchangeTime: number, receivedAt: number];

/**
 * Stands in for a ccxt pro client: updates are assigned into `bidsasks` as every exchange class
 * does; the first watch resolves with the first update, and `closed()` rejects when the socket
 * drops or is closed. Watch calls and dials are counted.
 */
class FakeClient implements FeedClient {
  bidsasks: Record<string, CcxtBidAsk | undefined> = {};
  dials = 0;
  watches = 0;
  /** The symbols of every watch call: one subscribe request each. */
  requests: string[][] = [];
  closes = 0;
  private open = false;
  private firstData: { resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  private socket: { reject: (e: Error) => void } | null = null;

  watchBidsAsks(symbols: string[]): Promise<unknown> {
    this.watches++;
    this.requests.push(symbols);
    if (!this.open) {
      this.open = true;
      this.dials++;
    }
    return new Promise((resolve, reject) => this.firstData.push({ resolve, reject }));
  }

  closed(): Promise<never> {
    return new Promise<never>((_, reject) => (this.socket = { reject }));
  }

  /** Several updates land in the cache; a pending watch resolves once, as ccxt does. */
  push(...updates: [string, number, number][]): void {
    for (const [symbol, bid, ask] of updates) {
      this.bidsasks[symbol] = { symbol, bid, ask, bidVolume: 1, askVolume: 2, timestamp: 5 };
    }
    const pending = this.firstData;
    this.firstData = [];
    for (const p of pending) p.resolve({});
  }

  drop(): void {
    this.fail(new Error('connection closed by remote server, closing code 1006'));
  }

  close(): Promise<void> {
    this.closes++;
    this.fail(Object.assign(new Error('closedByUser'), { name: 'ExchangeClosedByUser' }));
    return Promise.resolve();
  }

  private fail(error: Error): void {
    this.open = false;
    const [pending, socket] = [this.firstData, this.socket];
    this.firstData = [];
    this.socket = null;
    for (const p of pending) p.reject(error);
    socket?.reject(error);
  }
}

describe('FeedConnection', () => {
  let client: FakeClient;
  let quotes: Quote[];
  let events: ConnectionEvent[];
  let conn: FeedConnection;

  const sink: QuoteSink = { quote: (...q: Quote) => void quotes.push(q) };

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    client = new FakeClient();
    quotes = [];
    events = [];
    conn = new FeedConnection({
      id: 'binance:SPOT:0',
      exchange: 'binance',
      market: 'SPOT',
      symbols: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'],
      indexes: [10, 11, 12],
      contractSizes: [1, 1, 0.01],
      client,
      clock: { now: () => Date.now() },
      silenceTimeoutMs: 30_000,
      backoff: { baseMs: 1000, maxMs: 8000 },
      random: () => 0.5,
      sink,
      onState: (e) => events.push(e),
    });
    conn.start();
  });

  afterEach(async () => {
    await conn.stop();
    vi.useRealTimers();
  });

  const states = (): string[] => events.map((e) => e.state);

  it('hands every update to the sink as it lands in the cache, with market index and base quantities', async () => {
    client.push(['BTC/USDT', 100, 101], ['ETH/USDT', 10, 11]);
    await vi.advanceTimersByTimeAsync(0);
    expect(quotes).toEqual([
      [10, 100, 101, 1, 2, 5, 1_000_000],
      [11, 10, 11, 1, 2, 5, 1_000_000],
    ]);
    // Contract sizes turn contracts into base units (0.01 base per contract here).
    client.push(['SOL/USDT', 1, 2]);
    // Updates keep flowing with no further watch call: the watch subscribes once per connection.
    client.push(['BTC/USDT', 102, 103], ['BTC/USDT', 104, 105]);
    await vi.advanceTimersByTimeAsync(0);
    expect(quotes.slice(2)).toEqual([
      [12, 1, 2, 0.01, 0.02, 5, 1_000_000],
      [10, 102, 103, 1, 2, 5, 1_000_000],
      [10, 104, 105, 1, 2, 5, 1_000_000],
    ]);
    expect(client.watches).toBe(1);
    // The cache keeps no update once the sink has it (ccxt's parsed objects die young); the
    // symbols' slots stay in place as the accessors that catch the next one.
    expect(client.bidsasks['BTC/USDT']).toBeUndefined();
    expect(Object.keys(client.bidsasks)).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT']);
    expect(states()).toEqual(['connecting', 'connected']);
  });

  it('subscribes in groups of symbolsPerSubscribe, every request on the one socket, again after a reconnect', async () => {
    await conn.stop();
    client = new FakeClient();
    events = [];
    conn = new FeedConnection({
      id: 'bybit:SPOT:0', exchange: 'bybit', market: 'SPOT', symbols: ['A/USDT', 'B/USDT', 'C/USDT'], symbolsPerSubscribe: 2,
      indexes: [0, 1, 2], client, clock: { now: () => Date.now() }, silenceTimeoutMs: 30_000,
      backoff: { baseMs: 1000, maxMs: 8000 }, random: () => 0.5, sink, onState: (e) => events.push(e),
    });
    conn.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.requests).toEqual([['A/USDT', 'B/USDT'], ['C/USDT']]);
    expect(client.dials).toBe(1);
    client.push(['A/USDT', 1, 2]);
    await vi.advanceTimersByTimeAsync(0);
    expect(states()).toEqual(['connecting', 'connected']);
    client.drop();
    await vi.advanceTimersByTimeAsync(750);
    expect(client.requests.slice(2)).toEqual([['A/USDT', 'B/USDT'], ['C/USDT']]);
    expect(client.dials).toBe(2);
  });

  it('passes no quote for one-sided or empty books, and NaN for a missing exchange time', async () => {
    client.bidsasks['BTC/USDT'] = { bid: 100, ask: undefined };
    client.bidsasks['ETH/USDT'] = { bid: 0, ask: 11 };
    client.bidsasks['SOL/USDT'] = { bid: 150, ask: 151, bidVolume: 300, askVolume: 400 };
    await vi.advanceTimersByTimeAsync(0);
    expect(quotes).toEqual([[12, 150, 151, 3, 4, NaN, 1_000_000]]);
  });

  it('reconnects after a drop with jittered exponential backoff', async () => {
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    client.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(states()).toEqual(['connecting', 'connected', 'disconnected']);
    expect(events[2]?.reason).toContain('1006');
    // attempt 0: ceiling 1000 ms, random 0.5 → 750 ms.
    await vi.advanceTimersByTimeAsync(749);
    expect(client.dials).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.dials).toBe(2);
    // Failing again before any data: the next wait doubles (1500 ms).
    client.drop();
    await vi.advanceTimersByTimeAsync(1499);
    expect(client.dials).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.dials).toBe(3);
    // Data resets the backoff.
    client.push(['BTC/USDT', 102, 103]);
    await vi.advanceTimersByTimeAsync(0);
    client.drop();
    await vi.advanceTimersByTimeAsync(750);
    expect(client.dials).toBe(4);
    expect(conn.reconnects).toBe(3);
  });

  it('closes and replaces a connection that sends no data for the silence timeout', async () => {
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(client.closes).toBe(0);
    await vi.advanceTimersByTimeAsync(8_500);
    expect(client.closes).toBeGreaterThanOrEqual(1);
    expect(events.find((e) => e.state === 'disconnected')?.reason).toBe('silence');
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.dials).toBe(2);
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    expect(states().slice(-2)).toEqual(['connecting', 'connected']);
  });

  it('keeps a connection that keeps sending data', async () => {
    for (let i = 0; i < 40; i++) {
      client.push(['BTC/USDT', 100 + i, 101 + i]);
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(client.closes).toBe(0);
    expect(client.dials).toBe(1);
  });

  it('stops cleanly: the pending watch is closed by the user, no reconnect, no timers left', async () => {
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    await conn.stop();
    expect(states().slice(-1)).toEqual(['closed']);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.dials).toBe(1);
  });

  it('can stop while waiting to reconnect', async () => {
    client.drop();
    await vi.advanceTimersByTimeAsync(10);
    await conn.stop();
    expect(vi.getTimerCount()).toBe(0);
    expect(states().slice(-1)).toEqual(['closed']);
  });
});
