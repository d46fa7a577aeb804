import { describe, expect, it } from 'vitest';
import type { QuoteTick } from './market-data-source.js';
import { QuoteBook } from './quote-book.js';
import { InProcessQuoteTickBus } from './quote-tick-bus.js';
import { shareOneHiddenClass } from '../../test/utils/hidden-class.js';

const tick = (over: Partial<QuoteTick> = {}): QuoteTick => ({
  exchange: 'binance',
  market: 'SPOT',
  ticker: 'BTC-USDT',
  bid: 100,
  ask: 101,
  bidQty: 1,
  askQty: 2,
  exchangeTime: 1_000,
  receivedAt: 1_000,
  ...over,
});

function setup(start = 1_000) {
  const clock = { t: start, now: () => clock.t };
  const bus = new InProcessQuoteTickBus();
  return { clock, bus, book: new QuoteBook(bus, clock) };
}

describe('QuoteBook', () => {
  it('keeps the latest quote per (exchange, market, ticker)', () => {
    const { book } = setup();
    book.apply(tick({ bid: 100 }));
    book.apply(tick({ bid: 102 }));
    book.apply(tick({ market: 'FUTURES', bid: 103 }));
    book.apply(tick({ exchange: 'okx', bid: 99 }));
    expect(book.get('binance', 'SPOT', 'BTC-USDT')?.bid).toBe(102);
    expect(book.get('binance', 'FUTURES', 'BTC-USDT')?.bid).toBe(103);
    expect(book.get('okx', 'SPOT', 'BTC-USDT')?.bid).toBe(99);
    expect(book.get('gate', 'SPOT', 'BTC-USDT')).toBeUndefined();
    expect(book.size).toBe(3);
  });

  it('snapshot quotes share one hidden class (a spread per quote made one class each: issue 18 soak)', () => {
    const { book } = setup();
    for (let i = 0; i < 50; i++) book.apply(tick({ ticker: `C${i}-USDT`, bid: 100 + i / 7, ask: 101 + i / 7 }));
    const quotes = [...book.snapshot()];
    expect(quotes).toHaveLength(50);
    expect(quotes[3]).toEqual({ ...tick({ ticker: 'C3-USDT', bid: 100 + 3 / 7, ask: 101 + 3 / 7 }), volume: null, stale: false });
    expect(shareOneHiddenClass(quotes)).toBe(true);
  });

  it('is stale after 10 s without a tick (D5), judged on receive time', () => {
    const { book, clock } = setup();
    book.apply(tick({ receivedAt: 1_000, exchangeTime: 0 }));
    const quote = book.get('binance', 'SPOT', 'BTC-USDT');
    clock.t = 11_000;
    expect(book.isStale(quote)).toBe(false);
    clock.t = 11_001;
    expect(book.isStale(quote)).toBe(true);
    expect(book.isStale(undefined)).toBe(true);
    expect(book.countStale()).toBe(1);
  });

  it('publishes every tick once on the shared bus, to every subscriber', () => {
    const { book, bus } = setup();
    const a: QuoteTick[] = [];
    const b: QuoteTick[] = [];
    bus.ticks.subscribe((t) => a.push(t));
    bus.ticks.subscribe((t) => b.push(t));
    const t1 = tick();
    book.apply(t1);
    expect(a).toEqual([t1]);
    expect(b).toEqual([t1]);
  });

  it('merges volumes and reports them in the snapshot with staleness', () => {
    const { book, clock } = setup();
    book.apply(tick({ receivedAt: 1_000 }));
    book.apply(tick({ exchange: 'okx', receivedAt: 9_000 }));
    book.mergeVolumes('binance', [{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 5e9 }]);
    clock.t = 12_000;
    const snap = [...book.snapshot()];
    expect(snap).toHaveLength(2);
    expect(snap.find((q) => q.exchange === 'binance')).toMatchObject({ volume: 5e9, stale: true });
    expect(snap.find((q) => q.exchange === 'okx')).toMatchObject({ volume: null, stale: false });
    expect([...book.snapshot({ exchange: 'okx', market: 'FUTURES' })]).toEqual([]);
  });

  it('tracks the last message time and tick count per exchange', () => {
    const { book } = setup();
    expect(book.lastMessageAt('bybit')).toBeNull();
    book.apply(tick({ exchange: 'bybit', receivedAt: 5_000 }));
    book.apply(tick({ exchange: 'bybit', receivedAt: 6_000 }));
    expect(book.lastMessageAt('bybit')).toBe(6_000);
    expect(book.tickCounts.bybit).toBe(2);
  });
});
