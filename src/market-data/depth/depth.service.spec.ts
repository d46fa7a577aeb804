import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../../config/app-config.js';
import { FakeMarketDataSource } from '../testing/fake-market-data-source.js';
import type { DepthBook } from './depth-book.js';
import { DEPTH_APPLY_MS, DEPTH_DEMAND_HOLD_MS, DEPTH_DEMAND_MAX, DEPTH_DEMAND_WAIT_MS, DepthService } from './depth.service.js';

const T0 = 1_800_000_000_000;
const configWith = (enabled: boolean, websocketEnabled = true): AppConfig =>
  ({ marketData: { exchanges: ['binance', 'okx'], websocketEnabled, depth: { enabled, maxBooks: 400, graceMs: 60_000 } } }) as unknown as AppConfig;
const book = (exchange: DepthBook['exchange'], ticker: string, receivedAt: number, market: DepthBook['market'] = 'SPOT'): DepthBook =>
  ({ exchange, market, ticker, bids: [99, 1], asks: [100, 1], receivedAt });
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
    expect(await service.bookFor({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' })).toMatchObject({ bids: [[99, 1]], asks: [[100, 1]] });
    expect(service.book('okx', 'SPOT', 'ETH-USDT')).toBeNull();
    expect(service.heldCounts()).toMatchObject({ binance: 1, okx: 0 });
  });

  /** The message of the error bookFor rejects with. */
  const failure = async (call: Promise<unknown>): Promise<string> => {
    try {
      await call;
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('expected a failure');
  };
  const listing = (...tickers: string[]) => tickers.flatMap((ticker) => [{ market: 'SPOT' as const, ticker }, { market: 'FUTURES' as const, ticker }]);

  it('a 404 is for a market the venue does not list, and names the books the exchange holds: none, up to 10, or the first 10 and the count', async () => {
    const tickers = Array.from({ length: 12 }, (_, i) => `C${String(i).padStart(2, '0')}-USDT`);
    source.markets.set('okx', listing(...tickers));
    source.markets.set('binance', listing(...tickers));
    const notHeld = (exchange: string, market = 'SPOT'): Promise<string> => failure(service.bookFor({ exchange, market, ticker: 'XRP-USDT' }));
    expect(await notHeld('okx')).toBe('book not held: okx lists no SPOT market XRP-USDT; okx holds none now');
    for (const ticker of tickers) service.routeOpened({ ...route, ticker }, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    for (const ticker of tickers.slice(0, 2)) source.pushBook(book('okx', ticker, T0));
    expect(await notHeld('okx', 'FUTURES')).toBe('book not held: okx lists no FUTURES market XRP-USDT; okx holds 2 books: SPOT C00-USDT, SPOT C01-USDT');
    for (const ticker of [...tickers].reverse()) source.pushBook(book('binance', ticker, T0));
    expect(await notHeld('binance')).toBe(`book not held: binance lists no SPOT market XRP-USDT; binance holds 12 books, the first 10: ${tickers.slice(0, 10).map((t) => `SPOT ${t}`).join(', ')}`);
    const off = new DepthService(configWith(false), source, { now: () => now });
    expect(await failure(off.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT' }))).toBe('book not held: order books are off (DEPTH_ENABLED=0)');
    const feedsOff = new DepthService(configWith(true, false), source, { now: () => now });
    expect(await failure(feedsOff.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'C00-USDT' })))
      .toBe('book not held: the live feeds are off (ENABLED_WEBSOCKET=1 starts them); okx holds none now');
  });

  it('a listed market no route holds is asked for by name, spot or perpetual, and answered with its first state', async () => {
    source.markets.set('okx', listing('ETH-USDT'));
    const answer = service.bookFor({ exchange: 'okx', market: 'futures', ticker: 'ETHUSDT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(Object.fromEntries(source.heldBooks)).toEqual({ 'okx|FUTURES': ['ETH-USDT'] });
    now = T0 + 40;
    source.pushBook(book('okx', 'ETH-USDT', T0, 'FUTURES'));
    expect(await answer).toEqual({ exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT', bids: [[99, 1]], asks: [[100, 1]], ageMs: 40 });
    // Held now: the next request answers from it, without asking the venue again.
    expect(await service.bookFor({ exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT' })).toMatchObject({ ageMs: 40 });
    expect(service.heldCounts()).toMatchObject({ okx: 1 });
  });

  it('a book asked for stays DEPTH_DEMAND_HOLD_MS after its last request, then is released; the routes keep theirs', async () => {
    source.markets.set('okx', listing('ETH-USDT', 'BTC-USDT'));
    service.routeOpened(route, T0, 0.5);
    await vi.advanceTimersByTimeAsync(DEPTH_APPLY_MS);
    const answer = service.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' });
    await vi.advanceTimersByTimeAsync(0);
    expect(source.heldBooks.get('okx|SPOT')).toEqual(['BTC-USDT', 'ETH-USDT']);
    source.pushBook(book('okx', 'ETH-USDT', now));
    await answer;
    now = T0 + DEPTH_DEMAND_HOLD_MS - 1;
    await vi.advanceTimersByTimeAsync(1000);
    expect(source.heldBooks.get('okx|SPOT')).toEqual(['BTC-USDT', 'ETH-USDT']);
    now = T0 + DEPTH_DEMAND_HOLD_MS + 1000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(source.heldBooks.get('okx|SPOT')).toEqual(['BTC-USDT']);
    expect(service.book('okx', 'SPOT', 'ETH-USDT')).toBeNull();
  });

  it('a book that does not come within DEPTH_DEMAND_WAIT_MS is a 503; it stays asked for, and the next request gets it', async () => {
    source.markets.set('okx', listing('ETH-USDT'));
    const first = failure(service.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' }));
    await vi.advanceTimersByTimeAsync(DEPTH_DEMAND_WAIT_MS);
    expect(await first).toBe('the book was asked of okx and did not arrive within 5 s; it is held now, try again');
    source.pushBook(book('okx', 'ETH-USDT', now));
    expect(await service.bookFor({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' })).toMatchObject({ ticker: 'ETH-USDT' });
  });

  it(`at most DEPTH_DEMAND_MAX (${DEPTH_DEMAND_MAX}) books asked for at once: the next is a 503, a venue that cannot list its markets too`, async () => {
    const tickers = Array.from({ length: DEPTH_DEMAND_MAX + 1 }, (_, i) => `D${i}-USDT`);
    source.markets.set('okx', listing(...tickers));
    const asked = tickers.slice(0, DEPTH_DEMAND_MAX).map((ticker) => failure(service.bookFor({ exchange: 'okx', market: 'SPOT', ticker })));
    await vi.advanceTimersByTimeAsync(0);
    expect(await failure(service.bookFor({ exchange: 'okx', market: 'SPOT', ticker: tickers.at(-1) ?? '' })))
      .toBe(`books on request are at their limit (${DEPTH_DEMAND_MAX} held at once); try again when one is released`);
    expect(source.heldBooks.get('okx|SPOT')).toHaveLength(DEPTH_DEMAND_MAX);
    await vi.advanceTimersByTimeAsync(DEPTH_DEMAND_WAIT_MS);
    await Promise.all(asked);
    source.listMarkets = () => Promise.reject(new Error('network'));
    expect(await failure(service.bookFor({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' }))).toBe("binance's market list cannot be read now; try again");
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
