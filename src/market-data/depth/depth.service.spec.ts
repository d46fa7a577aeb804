import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../../config/app-config.js';
import { FakeMarketDataSource } from '../testing/fake-market-data-source.js';
import type { DepthBook } from './depth-book.js';
import { DEPTH_APPLY_MS, DepthService } from './depth.service.js';

const T0 = 1_800_000_000_000;
const configWith = (enabled: boolean): AppConfig => ({ marketData: { exchanges: ['binance', 'okx'], depth: { enabled, maxBooks: 400, graceMs: 60_000 } } }) as unknown as AppConfig;
const book = (exchange: DepthBook['exchange'], ticker: string, receivedAt: number): DepthBook =>
  ({ exchange, market: 'SPOT', ticker, bids: [99, 1], asks: [100, 1], receivedAt });
const route = { ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx' } as const;

describe('DepthService: the held books on the serving thread', () => {
  let source: FakeMarketDataSource;
  let service: DepthService;
  let now: number;

  beforeEach(() => {
    vi.useFakeTimers();
    now = T0;
    source = new FakeMarketDataSource();
    service = new DepthService(configWith(true), source, { now: () => now });
    service.onModuleInit();
  });
  afterEach(() => {
    service.onModuleDestroy();
    vi.useRealTimers();
  });

  it('a route opening asks the source for both spot books; their updates are kept and counted per exchange', async () => {
    service.routeOpened(route, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    expect(Object.fromEntries(source.heldBooks)).toEqual({ 'binance|SPOT': ['BTC-USDT'], 'okx|SPOT': ['BTC-USDT'] });
    source.pushBook(book('binance', 'BTC-USDT', T0));
    source.pushBook(book('okx', 'ETH-USDT', T0)); // not held: ignored
    expect(service.book('binance', 'SPOT', 'BTC-USDT')?.asks).toEqual([100, 1]);
    expect(service.bookFor({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' })).toMatchObject({ bids: [[99, 1]], asks: [[100, 1]] });
    expect(service.book('okx', 'SPOT', 'ETH-USDT')).toBeNull();
    expect(service.heldCounts()).toMatchObject({ binance: 1, okx: 0 });
  });

  it('a 404 names the books the exchange holds: none, up to 10, or the first 10 and the count', async () => {
    const notHeld = (exchange: string, market = 'SPOT'): string => {
      try {
        service.bookFor({ exchange, market, ticker: 'XRP-USDT' });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('expected a 404');
    };
    expect(notHeld('okx')).toBe('book not held: okx holds none now (books are held for both legs of open spot routes only)');
    const tickers = Array.from({ length: 12 }, (_, i) => `C${String(i).padStart(2, '0')}-USDT`);
    for (const ticker of tickers) service.routeOpened({ ...route, ticker }, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    for (const ticker of tickers.slice(0, 2)) source.pushBook(book('okx', ticker, T0));
    expect(notHeld('okx', 'FUTURES')).toBe('book not held: okx holds 2 SPOT books: C00-USDT, C01-USDT');
    for (const ticker of [...tickers].reverse()) source.pushBook(book('binance', ticker, T0));
    expect(notHeld('binance')).toBe(`book not held: binance holds 12 SPOT books, the first 10: ${tickers.slice(0, 10).join(', ')}`);
    const off = new DepthService(configWith(false), source, { now: () => now });
    expect(() => off.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT' })).toThrow('book not held: order books are off (DEPTH_ENABLED=0)');
  });

  it('a book older than 5 s is unknown, though still held', async () => {
    service.routeOpened(route, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    source.pushBook(book('binance', 'BTC-USDT', T0));
    expect(service.knownBook('binance', 'SPOT', 'BTC-USDT', T0 + 5000)).not.toBeNull();
    expect(service.knownBook('binance', 'SPOT', 'BTC-USDT', T0 + 5001)).toBeNull();
    expect(service.book('binance', 'SPOT', 'BTC-USDT')).not.toBeNull();
  });

  it('after the grace period the books are released and forgotten', async () => {
    service.routeOpened(route, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    source.pushBook(book('binance', 'BTC-USDT', T0));
    service.routeEnded(route, T0 + 1000);
    now = T0 + 61_000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(Object.fromEntries(source.heldBooks)).toEqual({ 'binance|SPOT': [], 'okx|SPOT': [] });
    expect(service.book('binance', 'SPOT', 'BTC-USDT')).toBeNull();
  });

  it('a burst of route events is ranked once: the books asked for after the window, one request per exchange', async () => {
    const calls: string[] = [];
    const hold = source.holdBooks.bind(source);
    source.holdBooks = (exchange, market, tickers) => {
      calls.push(exchange);
      hold(exchange, market, tickers);
    };
    for (let i = 0; i < 500; i++) {
      const r = { ...route, ticker: `T${i}-USDT` };
      service.routeOpened(r, T0, 0.5);
      if (i % 2 === 1) service.routeEnded(r, T0 + 1);
    }
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    expect(calls.sort()).toEqual(['binance', 'okx']);
    expect(source.heldBooks.get('binance|SPOT')).toHaveLength(200); // the 250 open first (400 books), none of the closed
  });

  it('DEPTH_ENABLED=0: no book is ever asked for', () => {
    const off = new DepthService(configWith(false), source, { now: () => now });
    off.routeOpened(route, T0, 0.5);
    expect(off.enabled).toBe(false);
    expect(source.heldBooks.size).toBe(0);
  });
});
