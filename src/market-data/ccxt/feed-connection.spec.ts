import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionEvent, QuoteTick } from '../market-data-source.js';
import type { CcxtBidAsk, FeedClient } from './feed-client.js';
import { FeedConnection, toTick } from './feed-connection.js';

/** Stands in for a ccxt pro client: one pending watch, a bid/ask cache, dials counted. */
class FakeClient implements FeedClient {
  bidsasks: Record<string, CcxtBidAsk | undefined> = {};
  dials = 0;
  closes = 0;
  private open = false;
  private pending: { resolve: (v: unknown) => void; reject: (e: Error) => void } | null = null;

  watchBidsAsks(): Promise<unknown> {
    if (!this.open) {
      this.open = true;
      this.dials++;
    }
    return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
  }

  /** Several updates land in the cache; the watch resolves once, as ccxt does. */
  push(...updates: [string, number, number][]): void {
    for (const [symbol, bid, ask] of updates) {
      this.bidsasks[symbol] = { symbol, bid, ask, bidVolume: 1, askVolume: 2, timestamp: 5 };
    }
    this.settle((p) => p.resolve({}));
  }

  drop(): void {
    this.open = false;
    this.settle((p) => p.reject(new Error('connection closed by remote server, closing code 1006')));
  }

  close(): Promise<void> {
    this.closes++;
    this.open = false;
    this.settle((p) => p.reject(Object.assign(new Error('closedByUser'), { name: 'ExchangeClosedByUser' })));
    return Promise.resolve();
  }

  private settle(fn: (p: NonNullable<FakeClient['pending']>) => void): void {
    const p = this.pending;
    this.pending = null;
    if (p) fn(p);
  }
}

describe('FeedConnection', () => {
  let client: FakeClient;
  let ticks: QuoteTick[];
  let events: ConnectionEvent[];
  let conn: FeedConnection;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    client = new FakeClient();
    ticks = [];
    events = [];
    conn = new FeedConnection({
      id: 'binance:SPOT:0',
      exchange: 'binance',
      market: 'SPOT',
      symbols: ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'],
      client,
      clock: { now: () => Date.now() },
      silenceTimeoutMs: 30_000,
      backoff: { baseMs: 1000, maxMs: 8000 },
      random: () => 0.5,
      onTick: (t) => ticks.push(t),
      onState: (e) => events.push(e),
    });
    conn.start();
  });

  afterEach(async () => {
    await conn.stop();
    vi.useRealTimers();
  });

  const states = (): string[] => events.map((e) => e.state);

  it('reads every update from the cache even when the watch resolves once', async () => {
    client.push(['BTC/USDT', 100, 101], ['ETH/USDT', 10, 11]);
    await vi.advanceTimersByTimeAsync(0);
    expect(ticks.map((t) => [t.ticker, t.bid, t.ask])).toEqual([
      ['BTC-USDT', 100, 101],
      ['ETH-USDT', 10, 11],
    ]);
    expect(ticks[0]).toMatchObject({ exchange: 'binance', market: 'SPOT', bidQty: 1, askQty: 2, exchangeTime: 5, receivedAt: 1_000_000 });
    // An unchanged cache entry is not re-emitted.
    client.push(['SOL/USDT', 1, 2]);
    await vi.advanceTimersByTimeAsync(0);
    expect(ticks.map((t) => t.ticker)).toEqual(['BTC-USDT', 'ETH-USDT', 'SOL-USDT']);
    expect(states()).toEqual(['connecting', 'connected']);
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

describe('toTick', () => {
  it('turns contract sizes into base quantities and drops one-sided books', () => {
    const e = { symbol: 'SOL/USDT:USDT', bid: 150, ask: 151, bidVolume: 300, askVolume: 400, timestamp: 7 };
    expect(toTick('okx', 'FUTURES', 'SOL-USDT', e, 9, 0.01)).toMatchObject({ bidQty: 3, askQty: 4, exchangeTime: 7, receivedAt: 9 });
    expect(toTick('okx', 'FUTURES', 'SOL-USDT', { ...e, bid: undefined }, 9)).toBeNull();
    expect(toTick('okx', 'FUTURES', 'SOL-USDT', { ...e, ask: 0 }, 9)).toBeNull();
  });
});
