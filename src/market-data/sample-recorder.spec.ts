import { describe, expect, it } from 'vitest';
import type { QuoteTick } from './market-data-source.js';
import { QuoteBook } from './quote-book.js';
import { InProcessQuoteTickBus } from './quote-tick-bus.js';
import { collectSamples, SampleRecorder } from './sample-recorder.js';
import type { MarketSample } from './market-sample.repository.js';

const tick = (over: Partial<QuoteTick>): QuoteTick => ({
  exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 100, ask: 101, bidQty: 1, askQty: 1,
  exchangeTime: null, receivedAt: 0, ...over,
});

describe('sample recorder (rules: recorders)', () => {
  const clock = { t: 20_000, now: () => clock.t };
  const book = new QuoteBook(new InProcessQuoteTickBus(), clock);
  book.apply(tick({ receivedAt: 19_000 }));
  book.apply(tick({ market: 'FUTURES', bid: 102, ask: 103, receivedAt: 15_000 }));
  // Spot fresh but futures stale (older than 10 s): no sample.
  book.apply(tick({ exchange: 'okx', receivedAt: 19_000 }));
  book.apply(tick({ exchange: 'okx', market: 'FUTURES', receivedAt: 9_999 }));
  // Futures only: no sample.
  book.apply(tick({ exchange: 'gate', market: 'FUTURES', receivedAt: 19_000 }));

  it('takes one row per (ticker, exchange) with fresh spot AND futures quotes', () => {
    expect(collectSamples(book, 20_000)).toEqual([
      {
        time: new Date(20_000), ticker: 'BTC-USDT', exchange: 'binance',
        spotBid: 100, spotAsk: 101, futuresBid: 102, futuresAsk: 103, fundingRate: null,
      },
    ]);
  });

  it('stores nothing when nothing is fresh', async () => {
    const inserted: MarketSample[][] = [];
    const recorder = new SampleRecorder({ book, clock, insert: (s) => (inserted.push([...s]), Promise.resolve()) });
    expect(await recorder.recordOnce()).toBe(1);
    clock.t = 40_000;
    expect(await recorder.recordOnce()).toBe(0);
    expect(inserted).toHaveLength(1);
  });
});
