import { Logger } from '@nestjs/common';
import { soloLease } from '../redis/testing/solo-lease.js';
import { TickLatency } from './tick-latency.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import { toAppConfig, validateEnv } from '../config/validate-env.js';
import { MarketDataService } from './market-data.service.js';
import { QuoteBook } from './quote-book.js';
import { NameCollisions } from './name-collisions.js';
import { InProcessQuoteTickBus } from './quote-tick-bus.js';
import { FakeMarketDataSource } from './testing/fake-market-data-source.js';

function configOf(env: Record<string, string>): AppConfig {
  return toAppConfig(validateEnv(env));
}

describe('MarketDataService with a fake source', () => {
  let source: FakeMarketDataSource;
  let book: QuoteBook;
  let service: MarketDataService | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    source = new FakeMarketDataSource();
    book = new QuoteBook(new InProcessQuoteTickBus(), { now: () => Date.now() }, source.marketTable);
    source.markets.set('binance', [
      { market: 'SPOT', ticker: 'BTC-USDT' },
      { market: 'FUTURES', ticker: 'BTC-USDT' },
      { market: 'SPOT', ticker: 'ETH-USDT' },
    ]);
    source.markets.set('okx', [{ market: 'SPOT', ticker: 'ETH-USDT' }]);
    source.volumes.set('binance', [{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 7 }]);
  });

  afterEach(async () => {
    await service?.onApplicationShutdown();
    vi.useRealTimers();
  });

  const start = async (env: Record<string, string>): Promise<MarketDataService> => {
    const clock = { now: () => Date.now() };
    service = new MarketDataService(configOf(env), source, book, new TickLatency(), clock, new NameCollisions({ spreadPercent: 20, minDurationMs: 60_000 }, book, clock), soloLease());
    service.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(0);
    return service;
  };

  it('without ENABLED_WEBSOCKET opens nothing and reports every exchange disconnected', async () => {
    const s = await start({ EXCHANGES: 'binance,OKX' });
    expect(source.watches).toEqual([]);
    expect(source.volumeFetches).toBe(0);
    expect(s.healthReport()).toEqual({
      binance: { connected: false, lastMessageAt: null, reconnects: 0, markets: 0, refused: [], restBannedUntil: null },
      okx: { connected: false, lastMessageAt: null, reconnects: 0, markets: 0, refused: [], restBannedUntil: null },
    });
  });

  it('/health/market says feeds off without ENABLED_WEBSOCKET, and on with it', async () => {
    expect((await start({ EXCHANGES: 'binance' })).marketHealth()).toMatchObject({ feeds: 'off', exchanges: { binance: { connected: false } } });
    await service?.onApplicationShutdown();
    expect((await start({ EXCHANGES: 'binance', ENABLED_WEBSOCKET: '1' })).marketHealth().feeds).toBe('on');
  });

  it('a REST ban (even without the feeds) shows restBannedUntil until it ends and is logged once, with no query string', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const s = await start({ EXCHANGES: 'binance,okx' });
    const until = Date.now() + 120_000;
    source.eventSubject.next({
      exchange: 'binance', market: 'SPOT', connectionId: 'binance:rest', state: 'rest-banned', at: Date.now(), restBannedUntil: until,
      reason: 'binance GET https://api.binance.com/api/v3/ticker/24hr 418 I\'m a teapot',
    });
    expect(s.healthReport().binance?.restBannedUntil).toBe(new Date(until).toISOString());
    expect(s.healthReport().okx?.restBannedUntil).toBeNull();
    expect(warn.mock.calls.map((c) => c[0])).toEqual([{
      msg: 'REST banned by the venue; no call to it until then', exchange: 'binance', until: new Date(until).toISOString(),
      reason: "binance GET https://api.binance.com/api/v3/ticker/24hr 418 I'm a teapot",
    }]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(s.healthReport().binance?.restBannedUntil).toBeNull();
    warn.mockRestore();
  });

  it('picks the auto universe, watches what each exchange lists and feeds the book', async () => {
    const s = await start({ ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance,okx' });
    expect(s.symbols).toEqual(['BTC-USDT', 'ETH-USDT']);
    expect(source.watches).toEqual([
      { exchange: 'binance', market: 'SPOT', tickers: ['BTC-USDT', 'ETH-USDT'] },
      { exchange: 'binance', market: 'FUTURES', tickers: ['BTC-USDT'] },
      { exchange: 'okx', market: 'SPOT', tickers: ['ETH-USDT'] },
    ]);
    expect(book.volume('binance', 'SPOT', 'BTC-USDT')).toBe(7);
    source.push({
      exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bid: 1, ask: 2, bidQty: 1, askQty: 1,
      exchangeTime: null, receivedAt: Date.now(),
    });
    expect(book.get('okx', 'SPOT', 'ETH-USDT')?.ask).toBe(2);
    expect(s.healthReport().okx).toMatchObject({ lastMessageAt: new Date(Date.now()).toISOString(), markets: 1 });
  });

  it('reports connected while all connections are up and counts reconnects', async () => {
    const s = await start({ ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance' });
    const ev = (connectionId: string, state: 'connecting' | 'connected' | 'disconnected') =>
      source.emit({ exchange: 'binance', market: 'SPOT', connectionId, state, at: Date.now() });
    ev('a', 'connecting');
    ev('b', 'connecting');
    ev('a', 'connected');
    expect(s.healthReport().binance?.connected).toBe(false);
    ev('b', 'connected');
    expect(s.healthReport().binance?.connected).toBe(true);
    ev('b', 'disconnected');
    ev('b', 'connecting');
    expect(s.healthReport().binance).toMatchObject({ connected: false, reconnects: 1 });
  });

  it('refreshes volumes every 60 s and honours an explicit SYMBOLS list', async () => {
    await start({ ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance', SYMBOLS: 'ethusdt' });
    expect(source.watches).toEqual([{ exchange: 'binance', market: 'SPOT', tickers: ['ETH-USDT'] }]);
    const before = source.volumeFetches;
    source.volumes.set('binance', [{ market: 'SPOT', ticker: 'ETH-USDT', quoteVolume: 42 }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(source.volumeFetches).toBe(before + 1);
    expect(book.volume('binance', 'SPOT', 'ETH-USDT')).toBe(42);
  });

  it('closes the source on shutdown and leaves no timers', async () => {
    const s = await start({ ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance' });
    await s.onApplicationShutdown();
    service = undefined;
    expect(source.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
