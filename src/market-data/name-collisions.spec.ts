import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeName } from '../market-model/exchanges.js';
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

  describe('identity by contract and by hand (rules: tickers)', () => {
    const FOO = '0x6982508145454ce325ddbe47a25d4ec3d2311933';
    const OTHER = '0x1111111111111111111111111111111111111111';
    const coins = (gateAddress: string) => [
      { exchange: 'binance' as const, asset: 'FOO', contracts: [{ network: 'ERC20', address: FOO }] },
      { exchange: 'gate' as const, asset: 'FOO', contracts: [{ network: 'ERC20', address: gateAddress }] },
    ];
    let source: { contractsVersion: number; venueCoins: () => ReturnType<typeof coins> };

    beforeEach(() => {
      collisions.stop();
      source = { contractsVersion: 1, venueCoins: () => coins(OTHER) };
      const clock = { now: () => Date.now() };
      collisions = new NameCollisions({ spreadPercent: 20, minDurationMs: 5000 }, book, clock, { contracts: source, denylist: [{ exchange: 'okx', symbol: 'FOO' }] });
      collisions.start();
    });

    it('a contract mismatch excludes both venues at the next check, with both addresses, no price wait', async () => {
      quote('binance', 0.99, 1.01);
      quote('gate', 0.99, 1.01); // same price: only the contract tells them apart
      await vi.advanceTimersByTimeAsync(NAME_COLLISION_CHECK_MS);
      expect(collisions.isExcluded('binance', 'FOO-USDT')).toBe(true);
      expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(true);
      expect(collisions.list().find((e) => e.exchange === 'gate')).toEqual({
        ticker: 'FOO-USDT', exchange: 'gate', since: new Date(T0 + 1000).toISOString(),
        reason: `contract mismatch: FOO on gate is ${OTHER} on ERC20, on binance ${FOO}: another coin under the same ticker`,
        contract: { network: 'ERC20', address: OTHER, otherAddress: FOO },
      });
      // The venue fixes its listing: the next currency refresh readmits both.
      source.venueCoins = () => coins(FOO);
      source.contractsVersion++;
      await vi.advanceTimersByTimeAsync(NAME_COLLISION_CHECK_MS);
      expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(false);
    });

    it('a matching contract overrides the price rule; the denylist excludes by hand', async () => {
      source.venueCoins = () => coins(FOO);
      for (let i = 0; i < 7; i++) {
        quote('binance', 0.99, 1.01);
        quote('gate', 1.39, 1.41); // 40 % apart for 7 s: the price rule alone would exclude both
        quote('okx', 0.99, 1.01);
        await vi.advanceTimersByTimeAsync(NAME_COLLISION_CHECK_MS);
      }
      expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(false);
      expect(collisions.isExcluded('binance', 'FOO-USDT')).toBe(false);
      expect(collisions.isExcluded('okx', 'FOO-USDT')).toBe(true);
      expect(collisions.list()).toEqual([{ ticker: 'FOO-USDT', exchange: 'okx', reason: 'denied: listed in SYMBOL_DENYLIST', since: new Date(0).toISOString() }]);
    });
  });

  it('a refused spot market is in no route until it is listed again', () => {
    const event = { exchange: 'gate' as const, market: 'SPOT' as const, connectionId: 'c', at: T0, ticker: 'FOO-USDT' };
    collisions.onFeedEvent({ ...event, market: 'FUTURES', state: 'refused', reason: 'halted: status suspend' });
    expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(false); // a perpetual is no spot route
    collisions.onFeedEvent({ ...event, state: 'refused', reason: 'halted: trade_status untradable' });
    expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(true);
    expect(collisions.isExcluded('okx', 'FOO-USDT')).toBe(false);
    collisions.onFeedEvent({ ...event, state: 'listed' });
    expect(collisions.isExcluded('gate', 'FOO-USDT')).toBe(false);
  });
});
