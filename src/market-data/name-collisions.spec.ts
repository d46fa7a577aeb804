import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeName } from './exchanges.js';
import { NAME_COLLISION_CHECK_MS, NameCollisions } from './name-collisions.js';
import { QuoteBook } from './quote-book.js';
import { InProcessQuoteTickBus } from './quote-tick-bus.js';

describe('NameCollisions over the quote book', () => {
  const T0 = 1_800_000_000_000;
  let book: QuoteBook;
  let collisions: NameCollisions;
  const quote = (exchange: ExchangeName, bid: number, ask: number, market: 'SPOT' | 'FUTURES' = 'SPOT'): void =>
    book.apply({ exchange, market, ticker: 'FOO-USDT', bid, ask, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: Date.now() });

  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
    const clock = { now: () => Date.now() };
    book = new QuoteBook(new InProcessQuoteTickBus(), clock);
    collisions = new NameCollisions({ spreadPercent: 20, minDurationMs: 5000 }, book, clock);
    collisions.start();
  });
  afterEach(() => {
    collisions.stop();
    vi.useRealTimers();
  });

  it('judges fresh spot quotes once a second and lists the exclusion with its reason', async () => {
    // binance and okx at mid 1.00, gate at 1.40 (40 % off the median 1.00); gate's perpetual is not a spot route.
    const feed = (): void => {
      quote('binance', 0.99, 1.01);
      quote('okx', 0.99, 1.01);
      quote('gate', 1.39, 1.41);
      quote('gate', 0.99, 1.01, 'FUTURES');
    };
    feed();
    await vi.advanceTimersByTimeAsync(NAME_COLLISION_CHECK_MS); // first seen off at T0 + 1 s
    feed();
    await vi.advanceTimersByTimeAsync(4 * NAME_COLLISION_CHECK_MS);
    expect(collisions.list()).toEqual([]); // off for 4 s of the 5
    feed();
    await vi.advanceTimersByTimeAsync(NAME_COLLISION_CHECK_MS);
    expect(collisions.list()).toEqual([{
      ticker: 'FOO-USDT', exchange: 'gate', since: new Date(T0 + 1000).toISOString(),
      reason: 'name collision: mid 40.0 % away from the median of 3 exchanges for over 5 s (threshold 20 %): another coin under the same ticker',
    }]);
    expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(true);
  });
});
