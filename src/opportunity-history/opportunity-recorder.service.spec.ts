import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/validate-env.js';
import type { Clock } from '../market-data/clock.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import type { OpportunitySample } from './opportunity-sample.js';
import { type HistoryStore, OpportunityRecorderService } from './opportunity-recorder.service.js';
import { DefaultRouteCosts } from '../market-data/route-costs.js';
import { RouteChangeQueue } from './route-changes.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

/** Keeps what the recorder stores and the cut-off retention asked for. */
class FakeStore implements HistoryStore {
  readonly batches: OpportunitySample[][] = [];
  readonly deletedBefore: Date[] = [];
  upsert(samples: readonly OpportunitySample[]): Promise<void> {
    this.batches.push([...samples]);
    return Promise.resolve();
  }
  deleteBefore(before: Date): Promise<number> {
    this.deletedBefore.push(before);
    return Promise.resolve(7);
  }
}

describe('OpportunityRecorderService', () => {
  const clock: Clock & { t: number } = { t: NOW, now: () => clock.t };
  let book: QuoteBook;
  let store: FakeStore;
  let excluded: Set<string>;
  let changes: RouteChangeQueue;
  const recorder = (env: Record<string, string> = {}): OpportunityRecorderService => {
    const config = loadConfig({ DB_PATH: ':memory:', ...env });
    changes = new RouteChangeQueue(config);
    return new OpportunityRecorderService(book, clock, store, new DefaultRouteCosts(), config, { isExcluded: (e, t) => excluded.has(`${e}|${t}`) }, changes);
  };
  const quote = (exchange: ExchangeName, ticker: string, bid: number, ask: number, ageMs = 0, market: 'SPOT' | 'FUTURES' = 'SPOT'): void =>
    book.apply({ exchange, market, ticker, bid, ask, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: NOW - ageMs });

  beforeEach(() => {
    clock.t = NOW;
    book = new QuoteBook(new InProcessQuoteTickBus(), clock);
    store = new FakeStore();
    excluded = new Set();
  });

  it('stores one sample per ordered pair of exchanges at or above the minimum gross spread, with the `recorders` rule default costs', async () => {
    quote('binance', 'BTC-USDT', 99, 100);
    quote('okx', 'BTC-USDT', 101, 102);
    book.mergeVolumes('binance', [{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 5e6 }]);
    book.mergeVolumes('okx', [{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 3e6 }]);
    expect(await recorder().recordOnce()).toBe(1);
    // binance → okx: (101 − 100) ÷ 100 × 100 = 1 %; okx → binance: (99 − 102) ÷ 102 × 100 < 0, below 0.
    expect(store.batches).toEqual([[{
      time: new Date(NOW), ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx',
      buyPrice: 100, sellPrice: 101, grossSpreadPercent: 1,
      buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 0.01, withdrawalFeeUsd: 1,
      feesEstimated: true, executable: true, volume24h: 3e6,
    }]]);
  });

  it('leaves out a quote whose ticker names another coin on its exchange', async () => {
    quote('binance', 'BTC-USDT', 99, 100);
    quote('okx', 'BTC-USDT', 101, 102);
    excluded.add('okx|BTC-USDT');
    expect(await recorder().recordOnce()).toBe(0);
  });

  it('includes a zero spread at the default minimum, honours a negative minimum, and leaves volume null when one side is unknown', async () => {
    quote('binance', 'ETH-USDT', 100, 100);
    quote('bybit', 'ETH-USDT', 100, 100);
    book.mergeVolumes('binance', [{ market: 'SPOT', ticker: 'ETH-USDT', quoteVolume: 1e6 }]);
    expect(await recorder().recordOnce()).toBe(2);
    expect(store.batches[0]?.map((s) => [s.buyExchange, s.sellExchange, s.grossSpreadPercent, s.volume24h])).toEqual([
      ['binance', 'bybit', 0, null], ['bybit', 'binance', 0, null],
    ]);
    quote('bybit', 'ETH-USDT', 99, 101);
    // binance → bybit: (99 − 100) ÷ 100 = −1 %; bybit → binance: (100 − 101) ÷ 101 ≈ −0.990 %.
    expect(await recorder({ HISTORY_MIN_SPREAD_PERCENT: '-0.995' }).recordOnce()).toBe(1);
    expect(store.batches[1]?.[0]).toMatchObject({ buyExchange: 'bybit', sellExchange: 'binance' });
  });

  it('keeps routes above a higher minimum only', async () => {
    quote('binance', 'SOL-USDT', 100, 100);
    quote('okx', 'SOL-USDT', 100.4, 100.5);
    quote('gate', 'SOL-USDT', 100.6, 100.7);
    // binance → okx 0.4 %, binance → gate 0.6 %, okx → gate ≈ 0.0995 %: only 0.5 % and above stays.
    expect(await recorder({ HISTORY_MIN_SPREAD_PERCENT: '0.5' }).recordOnce()).toBe(1);
    expect(store.batches[0]?.[0]).toMatchObject({ buyExchange: 'binance', sellExchange: 'gate' });
  });

  it('skips stale quotes, futures quotes and other tickers, and stores nothing when no route qualifies', async () => {
    quote('binance', 'BTC-USDT', 99, 100);
    quote('okx', 'BTC-USDT', 105, 106, 10_001); // stale: last tick more than 10 s ago
    quote('bybit', 'BTC-USDT', 105, 106, 0, 'FUTURES');
    quote('gate', 'ETH-USDT', 105, 106);
    expect(await recorder().recordOnce()).toBe(0);
    expect(store.batches).toEqual([]);
  });

  it('stamps every sample of a round with the clock, and cuts retention at HISTORY_RETENTION_DAYS', async () => {
    clock.t = NOW + 5000;
    quote('binance', 'BTC-USDT', 99, 100, -5000);
    quote('okx', 'BTC-USDT', 101, 102, -5000);
    await recorder().recordOnce();
    expect(store.batches[0]?.[0]?.time).toEqual(new Date(NOW + 5000));
    expect(await recorder({ HISTORY_RETENTION_DAYS: '30' }).purgeExpired()).toBe(7);
    expect(store.deletedBefore).toEqual([new Date(NOW + 5000 - 30 * 86_400_000)]);
  });

  it('stores the spreads the stream showed at their own times, with the route costs, once', async () => {
    const r = recorder();
    changes.shown({ ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', time: NOW - 1500, buyPrice: 100, sellPrice: 100.5, grossSpreadPercent: 0.5, volume24h: 2e6 });
    changes.ended({ ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', time: NOW - 200, buyPrice: 100, sellPrice: 100.05 });
    expect(await r.recordChanges()).toEqual({ stored: 2, dropped: 0 });
    // The clock plays no part: each sample carries the moment it was shown (rules: recorders).
    expect(store.batches).toEqual([[
      {
        time: new Date(NOW - 1500), ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', buyPrice: 100, sellPrice: 100.5,
        grossSpreadPercent: 0.5, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 0.01, withdrawalFeeUsd: 1,
        feesEstimated: true, executable: true, volume24h: 2e6,
      },
      // (100.05 − 100) ÷ 100 × 100 = 0.05 %, the closing spread, with the volume the route was shown with.
      expect.objectContaining({ time: new Date(NOW - 200), grossSpreadPercent: 0.05, volume24h: 2e6 }) as OpportunitySample,
    ]]);
    expect(await r.recordChanges()).toEqual({ stored: 0, dropped: 0 });
    expect(store.batches).toHaveLength(1);
  });

  it('puts the spreads back when the store fails, for the next flush', async () => {
    const r = recorder();
    changes.shown({ ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', time: NOW, buyPrice: 100, sellPrice: 100.5, grossSpreadPercent: 0.5, volume24h: null });
    const upsert = store.upsert.bind(store);
    store.upsert = () => Promise.reject(new Error('database down'));
    await expect(r.recordChanges()).rejects.toThrow('database down');
    store.upsert = upsert;
    expect(await r.recordChanges()).toEqual({ stored: 1, dropped: 0 });
    expect(store.batches[0]?.[0]).toMatchObject({ time: new Date(NOW), grossSpreadPercent: 0.5 });
  });
});
