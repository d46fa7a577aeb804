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
  terminations = 0;
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

  /** A subscribe error as ccxt raises it from the venue's error event (okx rejects every future). */
  refuse(message: string): void {
    this.fail(Object.assign(new Error(message), { name: 'BadRequest' }));
  }

  /** ws terminate(): the socket is destroyed at once and ccxt rejects with code 1006. */
  terminate(): void {
    this.terminations++;
    this.drop();
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

  const open = (exchange: 'binance' | 'okx'): FeedConnection => {
    const connection = new FeedConnection({
      id: `${exchange}:SPOT:0`,
      exchange,
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
    connection.start();
    return connection;
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    client = new FakeClient();
    quotes = [];
    events = [];
    conn = open('binance');
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

  it('quotes a lot-named perpetual per unit: price over the multiplier, quantity in base units', async () => {
    await conn.stop();
    client = new FakeClient();
    quotes = [];
    conn = new FeedConnection({
      id: 'binance:FUTURES:0', exchange: 'binance', market: 'FUTURES', symbols: ['1000PEPE/USDT:USDT', 'BTC/USDT:USDT'],
      indexes: [7, 8], multipliers: [1000, 1], contractSizes: [1, 1], client, clock: { now: () => Date.now() },
      silenceTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 }, sink, onState: () => undefined,
    });
    conn.start();
    await vi.advanceTimersByTimeAsync(0);
    // 1000PEPE at 0.0182 / 0.0184 is PEPE at 0.0000182 / 0.0000184; the fake's 1 and 2 lots are 1,000 and 2,000 PEPE.
    client.push(['1000PEPE/USDT:USDT', 0.0182, 0.0184], ['BTC/USDT:USDT', 97_000, 97_001]);
    await vi.advanceTimersByTimeAsync(0);
    expect(quotes.map(([index, bid, ask, bidQty, askQty]) => [index, bid, ask, bidQty, askQty])).toEqual([
      [7, 0.0182 / 1000, 0.0184 / 1000, 1000, 2000],
      [8, 97_000, 97_001, 1, 2],
    ]);
    expect(quotes[0]?.[1]).toBeCloseTo(0.0000182, 12);
  });

  it('reads contract quantities in base units as the venue means them, without binary tails', async () => {
    await conn.stop();
    client = new FakeClient();
    quotes = [];
    conn = new FeedConnection({
      id: 'gate:FUTURES:0', exchange: 'gate', market: 'FUTURES', symbols: ['BTC/USDT:USDT', 'ADA/USDT:USDT'],
      indexes: [0, 1], contractSizes: [0.0001, 10], client, clock: { now: () => Date.now() },
      silenceTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 }, sink, onState: () => undefined,
    });
    conn.start();
    await vi.advanceTimersByTimeAsync(0);
    client.bidsasks['BTC/USDT:USDT'] = { symbol: 'BTC/USDT:USDT', bid: 97_000, ask: 97_001, bidVolume: 2517, askVolume: 3, timestamp: 5 };
    client.bidsasks['ADA/USDT:USDT'] = { symbol: 'ADA/USDT:USDT', bid: 0.7, ask: 0.71, bidVolume: 0.7, askVolume: 12, timestamp: 5 };
    client.push();
    await vi.advanceTimersByTimeAsync(0);
    // 2517 × 0.0001 in binary floating point is 0.25170000000000003; 3 × 0.0001 is 0.00030000000000000003.
    expect(quotes.map(([index, , , bidQty, askQty]) => [index, bidQty, askQty])).toEqual([[0, 0.2517, 0.0003], [1, 7, 120]]);
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

  it('destroys a connection silent for exactly the silence timeout since its last quote, and re-dials after the first reconnect delay', async () => {
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(10_000);
    // A quote 10 s in moves the deadline to 40 s, whatever the timer was armed for.
    client.push(['ETH/USDT', 10, 11]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(client.terminations).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    // Destroyed at once (no close handshake to wait for), never closed gracefully first.
    expect(client.terminations).toBe(1);
    expect(states()).toEqual(['connecting', 'connected', 'disconnected']);
    expect(events[2]).toMatchObject({ reason: 'silence', at: 1_040_000 });
    // The first reconnect delay: ceiling 1000 ms, random 0.5 → 750 ms.
    await vi.advanceTimersByTimeAsync(749);
    expect(client.dials).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.dials).toBe(2);
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    expect(states().slice(-2)).toEqual(['connecting', 'connected']);
  });

  it('counts silence from the dial when no quote ever came', async () => {
    await vi.advanceTimersByTimeAsync(29_999);
    expect(client.terminations).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.terminations).toBe(1);
    expect(events.find((e) => e.state === 'disconnected')?.reason).toBe('silence');
  });

  const UPGRADE = 'okx {"event":"notice","code":"64008","msg":"The connection will soon be closed for a service upgrade. Please reconnect."}';

  it('an upgrade notice of a venue that announces upgrades (okx 64008) re-dials at once, without the reconnect delay', async () => {
    await conn.stop();
    client = new FakeClient();
    events = [];
    conn = open('okx');
    await vi.advanceTimersByTimeAsync(0);
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    client.refuse(UPGRADE);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.dials).toBe(2);
    expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'connecting']);
    expect(events.filter((e) => e.state === 'refused')).toEqual([]);
  });

  it('the same text on a venue whose folder names no upgrade notice waits for the reconnect delay', async () => {
    client.push(['BTC/USDT', 100, 101]);
    await vi.advanceTimersByTimeAsync(0);
    client.refuse(UPGRADE);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.dials).toBe(1);
  });

  it('keeps a connection that keeps sending data', async () => {
    for (let i = 0; i < 40; i++) {
      client.push(['BTC/USDT', 100 + i, 101 + i]);
      await vi.advanceTimersByTimeAsync(2_000);
    }
    expect(client.closes).toBe(0);
    expect(client.terminations).toBe(0);
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

  describe('refused and delisted symbols', () => {
    const start = (beforeDial?: () => Promise<(() => void) | undefined>): void => {
      conn = new FeedConnection({
        id: 'okx:SPOT:0', exchange: 'okx', market: 'SPOT', symbols: ['BTC/USDT', 'FOO/USDT', 'ETH/USDT'], symbolsPerSubscribe: 2,
        indexes: [0, 1, 2], marketIds: ['BTC-USDT', 'FOO-USDT', 'ETH-USDT'], client, clock: { now: () => Date.now() },
        silenceTimeoutMs: 30_000, backoff: { baseMs: 1000, maxMs: 8000 }, random: () => 0.5, sink, onState: (e) => events.push(e),
        beforeDial,
      });
      conn.start();
    };

    beforeEach(async () => {
      await conn.stop();
      client = new FakeClient();
      events = [];
      quotes = [];
    });

    it('a subscribe error naming one market id drops that symbol alone, reports it refused, and re-subscribes the rest at once', async () => {
      start();
      await vi.advanceTimersByTimeAsync(0);
      expect(client.requests).toEqual([['BTC/USDT', 'FOO/USDT'], ['ETH/USDT']]);
      client.refuse('okx {"event":"error","code":"60018","msg":"Wrong URL or channel:bbo-tbt,instId:FOO-USDT doesn\'t exist."}');
      await vi.advanceTimersByTimeAsync(0);
      const refused = events.filter((e) => e.state === 'refused');
      expect(refused).toEqual([expect.objectContaining({ exchange: 'okx', market: 'SPOT', ticker: 'FOO-USDT', reason: expect.stringContaining('60018') as unknown })]);
      // No backoff: one reconnect, with the others only.
      expect(client.dials).toBe(2);
      expect(client.requests.slice(2)).toEqual([['BTC/USDT', 'ETH/USDT']]);
      expect(conn.symbols).toEqual(['BTC/USDT', 'ETH/USDT']);
      client.push(['BTC/USDT', 100, 101], ['FOO/USDT', 1, 2], ['ETH/USDT', 10, 11]);
      await vi.advanceTimersByTimeAsync(0);
      expect(quotes.map((q) => q[0])).toEqual([0, 2]);
      expect(states().slice(-2)).toEqual(['connecting', 'connected']);
    });

    it('an error naming no id, or every id, refuses nothing and backs off as a failed connection', async () => {
      start();
      await vi.advanceTimersByTimeAsync(0);
      client.refuse('okx {"event":"error","code":"60012","msg":"Invalid request"}');
      await vi.advanceTimersByTimeAsync(0);
      expect(events.some((e) => e.state === 'refused')).toBe(false);
      expect(client.dials).toBe(1);
      await vi.advanceTimersByTimeAsync(750);
      expect(client.dials).toBe(2);
      client.refuse('BTC-USDT FOO-USDT ETH-USDT all unknown');
      await vi.advanceTimersByTimeAsync(0);
      expect(events.some((e) => e.state === 'refused')).toBe(false);
      expect(conn.symbols).toHaveLength(3);
    });

    it('an id inside a longer id is not a match (BTC-USDT in BTC-USDT-SWAP)', async () => {
      start();
      await vi.advanceTimersByTimeAsync(0);
      client.refuse('instId:BTC-USDT-SWAP doesn\'t exist');
      await vi.advanceTimersByTimeAsync(0);
      expect(events.some((e) => e.state === 'refused')).toBe(false);
    });

    it('drop() (delisted) stops delivering the symbol without a reconnect; the next dial leaves it out', async () => {
      start();
      client.push(['BTC/USDT', 100, 101]);
      await vi.advanceTimersByTimeAsync(0);
      conn.drop(['FOO/USDT'], 'delisted');
      expect(events.filter((e) => e.state === 'refused').map((e) => [e.ticker, e.reason])).toEqual([['FOO-USDT', 'delisted']]);
      client.push(['FOO/USDT', 1, 2], ['ETH/USDT', 10, 11]);
      await vi.advanceTimersByTimeAsync(0);
      expect(quotes.map((q) => q[0])).toEqual([0, 2]);
      expect(client.dials).toBe(1);
      client.drop();
      await vi.advanceTimersByTimeAsync(750);
      expect(client.requests.slice(-1)).toEqual([['BTC/USDT', 'ETH/USDT']]);
    });

    it('waits for beforeDial (the venue\'s connection allowance) before every dial, and reports the dial done once it delivered', async () => {
      let release: () => void = () => undefined;
      let asked = 0;
      let done = 0;
      start(() => {
        asked++;
        return new Promise<(() => void) | undefined>((resolve) => (release = () => resolve(() => void done++)));
      });
      await vi.advanceTimersByTimeAsync(100);
      expect(asked).toBe(1);
      expect(client.dials).toBe(0);
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(client.dials).toBe(1);
      expect(done).toBe(0);
      client.push(['BTC/USDT', 1, 2]);
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toBe(1);
      client.drop();
      await vi.advanceTimersByTimeAsync(750);
      expect(asked).toBe(2);
      expect(client.dials).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(client.dials).toBe(2);
    });
  });
});
