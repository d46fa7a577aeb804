import type { Exchange, MarketInterface } from 'ccxt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CcxtIngest } from '../ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../ccxt/exchange-clients.js';
import { WindowPacer } from '../ccxt/window-pacer.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import { toDepthClient } from './ccxt-depth-client.js';

const clock = { now: () => Date.now() };

/** A ccxt client stand-in recording the order-book calls the adapter makes. */
function stub(): { exchange: Exchange; calls: string[] } {
  const calls: string[] = [];
  const record = (name: string) => (arg: unknown, second?: unknown) => {
    calls.push(`${name} ${JSON.stringify(arg)} ${JSON.stringify(second ?? null)}`);
    return Promise.resolve({});
  };
  const exchange = {
    options: { streamLimits: { spot: 50, future: 50, option: 50 } },
    orderbooks: {},
    clients: {},
    client: () => ({}),
    handleMessage: () => undefined,
    watchOrderBook: record('watchOrderBook'),
    watchOrderBookForSymbols: record('watchOrderBookForSymbols'),
    unWatchOrderBook: record('unWatchOrderBook'),
    unWatchOrderBookForSymbols: record('unWatchOrderBookForSymbols'),
    close: () => Promise.resolve(),
  } as unknown as Exchange;
  return { exchange, calls };
}

const run = async (name: ExchangeName, symbols: string[]): Promise<{ calls: string[]; options: Record<string, unknown> }> => {
  const { exchange, calls } = stub();
  const client = toDepthClient(name, exchange);
  await client.subscribe(symbols);
  await client.unsubscribe(symbols);
  return { calls, options: exchange.options as Record<string, unknown> };
};

describe('toDepthClient: the channel each venue is watched on, through ccxt', () => {
  it('okx: many symbols in one request on `books` (a limit other than 1-5, 50 and 400)', async () => {
    expect((await run('okx', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 20',
      'unWatchOrderBookForSymbols ["A/USDT","B/USDT"] {}',
    ]);
  });

  it('bybit: orderbook.50, the unsubscribe naming the same depth', async () => {
    expect((await run('bybit', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 50',
      'unWatchOrderBookForSymbols ["A/USDT","B/USDT"] {"limit":50}',
    ]);
  });

  it('bitget: books15; unsubscribes one symbol per call', async () => {
    expect((await run('bitget', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 15',
      'unWatchOrderBook "A/USDT" {"limit":15}',
      'unWatchOrderBook "B/USDT" {"limit":15}',
    ]);
  });

  it('gate: one symbol per call, the unsubscribe naming the same depth', async () => {
    expect((await run('gate', ['A/USDT'])).calls).toEqual(['watchOrderBook "A/USDT" 20', 'unWatchOrderBook "A/USDT" {"limit":20}']);
  });

  it('binance: one symbol per call, and at most 8 depth sockets per market type', async () => {
    const { calls, options } = await run('binance', ['A/USDT']);
    expect(calls).toEqual(['watchOrderBook "A/USDT" 20', 'unWatchOrderBook "A/USDT" {}']);
    expect(options.streamLimits).toMatchObject({ spot: 8, future: 8 });
  });
});

describe('toDepthClient: messages counted', () => {
  it('every message ccxt hands its parser on the depth sockets (a socket made after the wrap included)', async () => {
    const exchange = createExchangeClient('binance', { simulatorUrl: 'http://127.0.0.1:9' });
    const client = toDepthClient('binance', exchange);
    expect(client.messages).toBe(0);
    // ccxt binds the parser when it makes a socket; the socket is made here, never opened.
    const ws = exchange.client('ws://127.0.0.1:9/stream') as unknown as { onMessage(event: { data: string }): void };
    ws.onMessage({ data: '{"result":null,"id":1}' });
    ws.onMessage({ data: '{"result":null,"id":2}' });
    expect(client.messages).toBe(2);
    await exchange.close();
  });
});

/**
 * A real ccxt pro client whose sockets are never opened: each dial is recorded, then opens at
 * once, or fails `failAfterMs` later (as a refused upgrade does).
 */
function recordingClient(name: ExchangeName, symbols: string[], failAfterMs?: number): { exchange: Exchange; dials: { url: string; at: number }[] } {
  const exchange = createExchangeClient(name, { simulatorUrl: 'http://127.0.0.1:9' });
  exchange.setMarkets(symbols.map((symbol) => {
    const id = symbol.replace('/', name === 'okx' ? '-' : '');
    return { id, lowercaseId: id.toLowerCase(), symbol, base: symbol.split('/')[0], quote: 'USDT', type: 'spot', spot: true, contract: false, active: true } as unknown as MarketInterface;
  }));
  const dials: { url: string; at: number }[] = [];
  const open = exchange.client.bind(exchange);
  const stubbed = new WeakSet<object>();
  exchange.client = (url: string) => {
    const ws = open(url) as unknown as { connection?: unknown; connected: { resolve(url: string): void }; createConnection(): void; onError(error: Error): void };
    if (stubbed.has(ws)) return ws as unknown as ReturnType<Exchange['client']>;
    stubbed.add(ws);
    ws.createConnection = () => {
      dials.push({ url, at: Date.now() });
      if (failAfterMs !== undefined) {
        setTimeout(() => ws.onError(new Error('Unexpected server response: 429')), failAfterMs);
        return;
      }
      ws.connection = { send: (_m: string, _o: unknown, done: () => void) => done(), on: () => undefined, removeAllListeners: () => undefined, close: () => undefined };
      ws.connected.resolve(url);
    };
    return ws as unknown as ReturnType<Exchange['client']>;
  };
  return { exchange, dials };
}

describe('toDepthClient: every socket ccxt opens for depth is a dial within the venue\'s allowance', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('okx: with the second\'s three dials taken by quote feeds, the depth socket opens only when the shared window frees', async () => {
    const ingest = new CcxtIngest({
      createClient: () => { throw new Error('no REST in this test'); },
      clock, silenceTimeoutMs: 30_000, backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000,
      sink: { quote: () => undefined }, onState: () => undefined,
    });
    const pacer = ingest.dialPacer('okx');
    if (!pacer) throw new Error('okx states a dial limit');
    // Three quote connections dial and open at 0 ms, as FeedConnection's beforeDial takes them.
    for (const opened of await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()])) opened();
    const { exchange, dials } = recordingClient('okx', ['BTC/USDT', 'ETH/USDT']);
    const depth = toDepthClient('okx', exchange, pacer);
    void depth.subscribe(['BTC/USDT', 'ETH/USDT']).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_249);
    expect(dials).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(dials.map((d) => d.at)).toEqual([1_250]);
    // The subscribe then goes out on that socket; a second request reuses it: no new dial.
    void depth.subscribe(['BTC/USDT']).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(dials).toHaveLength(1);
    await depth.close();
  });

  it('binance: each stream number is a socket of its own, and each waits for the allowance', async () => {
    const pacer = new WindowPacer(1, 1_000, clock);
    const { exchange, dials } = recordingClient('binance', ['A/USDT', 'B/USDT']);
    const depth = toDepthClient('binance', exchange, pacer);
    void depth.subscribe(['A/USDT']).catch(() => undefined);
    void depth.subscribe(['B/USDT']).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(dials.map((d) => d.at)).toEqual([0, 1_000]);
    expect(new Set(dials.map((d) => d.url)).size).toBe(2);
    await depth.close();
  });

  it('a failed dial frees its slot a window after it failed; the next request dials again', async () => {
    const pacer = new WindowPacer(1, 1_000, clock);
    const { exchange, dials } = recordingClient('okx', ['BTC/USDT'], 300);
    // ccxt's own delay before re-dialling a url sleeps on the real clock, out of the fake one's reach.
    exchange.options['ws'] = { backoff: { base: 0, max: 0 } };
    const depth = toDepthClient('okx', exchange, pacer);
    const first = depth.subscribe(['BTC/USDT']).then(() => 'answered', (err: Error) => err.message);
    await vi.advanceTimersByTimeAsync(300);
    expect(await first).toContain('429');
    void depth.subscribe(['BTC/USDT']).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(999);
    expect(dials.map((d) => d.at)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(dials.map((d) => d.at)).toEqual([0, 1_300]);
    await depth.close();
  });

  it('a client closed while its dial waits never dials', async () => {
    const pacer = new WindowPacer(1, 1_000, clock);
    (await pacer.acquire())();
    const { exchange, dials } = recordingClient('okx', ['BTC/USDT']);
    const depth = toDepthClient('okx', exchange, pacer);
    const first = depth.subscribe(['BTC/USDT']).then(() => 'answered', () => 'rejected');
    await vi.advanceTimersByTimeAsync(500);
    await depth.close();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(dials).toEqual([]);
    expect(await first).toBe('rejected');
  });
});
