import type { MarketInterface } from 'ccxt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forEachBook } from './book-batch.js';
import type { DepthClient, DepthClientBook } from './depth-feed.js';
import { DepthFeeds } from './depth-feeds.js';

const market = (symbol: string, over: Partial<MarketInterface> = {}): MarketInterface =>
  ({ id: symbol.replace('/', '').replace(':USDT', ''), symbol, base: symbol.split('/')[0], quote: 'USDT', spot: !symbol.includes(':'), swap: symbol.includes(':'), contract: symbol.includes(':'), linear: symbol.includes(':') ? true : undefined, type: symbol.includes(':') ? 'swap' : 'spot', active: true, ...over }) as MarketInterface;

const MARKETS: Record<string, MarketInterface> = {
  'BTC/USDT': market('BTC/USDT'),
  'ETH/USDT': market('ETH/USDT'),
  'BTC/USDT:USDT': market('BTC/USDT:USDT', { contractSize: 0.01, settle: 'USDT' }),
};

describe('DepthFeeds: the book manager of an ingest worker', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 50_000 }));
  afterEach(() => void vi.useRealTimers());

  type Client = DepthClient & { requests: string[]; messages: number };
  function setUp(): { feeds: DepthFeeds; clients: { exchange: string; market: string; client: Client }[]; batches: Float64Array[] } {
    const clients: { exchange: string; market: string; client: Client }[] = [];
    const batches: Float64Array[] = [];
    const feeds = new DepthFeeds({
      createClient: (exchange, market) => {
        const requests: string[] = [];
        const client = {
          orderbooks: {} as Record<string, DepthClientBook | undefined>,
          requests,
          messages: 0,
          subscribe: (symbols: string[]) => (requests.push(`sub ${symbols.join(',')}`), new Promise(() => undefined)),
          unsubscribe: (symbols: string[]) => (requests.push(`unsub ${symbols.join(',')}`), Promise.resolve()),
          close: () => Promise.resolve(),
        };
        clients.push({ exchange, market, client });
        return Promise.resolve(client);
      },
      markets: () => Promise.resolve(MARKETS),
      clock: { now: () => Date.now() },
      pollMs: 100,
      retryMs: 1000,
      onBatch: (batch) => batches.push(batch),
    });
    return { feeds, clients, batches };
  }

  it('one client per exchange and market type; tickers mapped to symbols', async () => {
    const { feeds, clients } = setUp();
    feeds.hold('okx', 'SPOT', [{ id: 0, ticker: 'BTC-USDT' }, { id: 1, ticker: 'ETH-USDT' }, { id: 2, ticker: 'NOPE-USDT' }]);
    feeds.hold('okx', 'FUTURES', [{ id: 3, ticker: 'BTC-USDT' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(clients.map((c) => [c.exchange, c.market])).toEqual([['okx', 'SPOT'], ['okx', 'FUTURES']]);
    expect(clients[0]?.client.requests).toEqual(['sub BTC/USDT,ETH/USDT']);
    expect(feeds.subscribed()).toEqual({ 'okx|SPOT': ['BTC/USDT', 'ETH/USDT'], 'okx|FUTURES': ['BTC/USDT:USDT'] });
    await feeds.close();
  });

  it('messages per exchange: both market types summed, other exchanges apart', async () => {
    const { feeds, clients } = setUp();
    expect(feeds.messages('okx')).toBe(0);
    feeds.hold('okx', 'SPOT', [{ id: 0, ticker: 'BTC-USDT' }]);
    feeds.hold('okx', 'FUTURES', [{ id: 3, ticker: 'BTC-USDT' }]);
    await vi.advanceTimersByTimeAsync(0);
    const [spot, perp] = clients;
    spot.client.messages = 7;
    perp.client.messages = 5;
    expect(feeds.messages('okx')).toBe(12);
    expect(feeds.messages('bybit')).toBe(0);
    await feeds.close();
  });

  it('every poll flushes the changed books as one batch, contract sizes turned into base units', async () => {
    const { feeds, clients, batches } = setUp();
    feeds.hold('okx', 'SPOT', [{ id: 0, ticker: 'BTC-USDT' }]);
    feeds.hold('okx', 'FUTURES', [{ id: 3, ticker: 'BTC-USDT' }]);
    await vi.advanceTimersByTimeAsync(0);
    const [spot, perp] = clients;
    spot.client.orderbooks['BTC/USDT'] = { bids: [[100, 2]], asks: [[101, 3]], timestamp: 1 };
    perp.client.orderbooks['BTC/USDT:USDT'] = { bids: [[100.5, 200]], asks: [[100.6, 100]], timestamp: 1 };
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toHaveLength(1);
    const seen: unknown[] = [];
    forEachBook(batches[0], (id, at, bids, asks) => seen.push({ id, at, bids, asks }));
    expect(seen).toEqual([
      { id: 0, at: 50_100, bids: [100, 2], asks: [101, 3] },
      { id: 3, at: 50_100, bids: [100.5, 2], asks: [100.6, 1] },
    ]);
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toHaveLength(1); // nothing changed: nothing sent
    await feeds.close();
  });
});
