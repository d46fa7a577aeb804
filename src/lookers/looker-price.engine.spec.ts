import { describe, expect, it } from 'vitest';
import type { QuoteTick } from '../market-data/market-data-source.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import { lookerPriceEvent, toLookerWatch } from './looker-price.engine.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

function bookAt(now: { t: number }): QuoteBook {
  return new QuoteBook(new InProcessQuoteTickBus(), { now: () => now.t });
}

const tick = (over: Partial<QuoteTick> = {}): QuoteTick => ({
  exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 100, ask: 101, bidQty: 1, askQty: 2,
  exchangeTime: null, receivedAt: T0, ...over,
});

describe('looker price event (rules: lookers, quotes)', () => {
  it('copies bid, ask, the merged 24 h volume and the tick time of the looker’s exchange and market', () => {
    const clock = { t: T0 + 500 };
    const book = bookAt(clock);
    book.apply(tick());
    book.apply(tick({ market: 'FUTURES', bid: 200, ask: 202 }));
    book.mergeVolumes('binance', [{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 5e9 }]);
    expect(lookerPriceEvent(book, 'binance', 'SPOT', 'BTC-USDT', { now: clock.t, hasFeed: true })).toEqual({
      ticker: 'BTC-USDT', exchange: 'binance', market: 'SPOT', ask: 101, bid: 100, volume: 5e9,
      stale: false, updatedAt: '2026-03-01T12:00:00.000Z',
    });
    expect(lookerPriceEvent(book, 'binance', 'FUTURES', 'BTC-USDT', { now: clock.t, hasFeed: true })).toMatchObject({
      market: 'FUTURES', bid: 200, ask: 202, volume: null, stale: false,
    });
  });

  it('is fresh at exactly 10 s after the last tick and stale just after (rules: staleness; older than 10 s)', () => {
    const clock = { t: T0 };
    const book = bookAt(clock);
    book.apply(tick());
    const at = (now: number) => lookerPriceEvent(book, 'binance', 'SPOT', 'BTC-USDT', { now, hasFeed: true }).stale;
    expect(at(T0 + 10_000)).toBe(false);
    expect(at(T0 + 10_001)).toBe(true);
  });

  it('is stale with prices kept when the exchange has no realtime feed', () => {
    const book = bookAt({ t: T0 });
    book.apply(tick());
    expect(lookerPriceEvent(book, 'binance', 'SPOT', 'BTC-USDT', { now: T0, hasFeed: false })).toMatchObject({
      stale: true, bid: 100, ask: 101,
    });
  });

  it('the `lookers` rule: a crypto never quoted has nulls and is stale, even when a volume is known', () => {
    const book = bookAt({ t: T0 });
    book.mergeVolumes('okx', [{ market: 'SPOT', ticker: 'ETH-USDT', quoteVolume: 7 }]);
    expect(lookerPriceEvent(book, 'okx', 'SPOT', 'ETH-USDT', { now: T0, hasFeed: true })).toEqual({
      ticker: 'ETH-USDT', exchange: 'okx', market: 'SPOT', ask: null, bid: null, volume: null, stale: true, updatedAt: null,
    });
  });

  it('a quote on another market or exchange does not count', () => {
    const book = bookAt({ t: T0 });
    book.apply(tick({ exchange: 'bybit' }));
    book.apply(tick({ market: 'FUTURES' }));
    expect(lookerPriceEvent(book, 'binance', 'SPOT', 'BTC-USDT', { now: T0, hasFeed: true }).bid).toBeNull();
  });

  it('watches the stored BASEQUOTE cryptos as canonical BASE-QUOTE tickers, in order', () => {
    expect(toLookerWatch({ exchange: 'gate', market: 'FUTURES', cryptos: ['ETHUSDT', 'BTCFDUSD', 'SOLBTC'] })).toEqual({
      exchange: 'gate', market: 'FUTURES', tickers: ['ETH-USDT', 'BTC-FDUSD', 'SOL-BTC'],
    });
  });
});
