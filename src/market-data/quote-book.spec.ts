import { describe, expect, it } from 'vitest';
import { TICK_STRIDE, packTicks } from './ingest/tick-batch.js';
import type { QuoteTick } from './market-data-source.js';
import { MarketTable } from './market-table.js';
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

  it('snapshot quotes share one hidden class (a spread per quote made one class each: the soak)', () => {
    const { book } = setup();
    for (let i = 0; i < 50; i++) book.apply(tick({ ticker: `C${i}-USDT`, bid: 100 + i / 7, ask: 101 + i / 7 }));
    const quotes = [...book.snapshot()];
    expect(quotes).toHaveLength(50);
    expect(quotes[3]).toEqual({ ...tick({ ticker: 'C3-USDT', bid: 100 + 3 / 7, ask: 101 + 3 / 7 }), volume: null, stale: false });
    expect(shareOneHiddenClass(quotes)).toBe(true);
  });

  it('is stale after 10 s without a tick (rules: staleness), judged on receive time', () => {
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

  describe('applyBatch: the ingest workers\' batch straight into the book', () => {
    function withTable() {
      const table = new MarketTable();
      // Indexes unlike any natural order of exchange, market or ticker.
      const eth = table.indexOf({ exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT' });
      const btc = table.indexOf({ exchange: 'gate', market: 'SPOT', ticker: 'BTC-USDT' });
      const sol = table.indexOf({ exchange: 'binance', market: 'SPOT', ticker: 'SOL-USDT' });
      const clock = { now: () => 10_000 };
      const bus = new InProcessQuoteTickBus();
      return { table, eth, btc, sol, bus, book: new QuoteBook(bus, clock, table) };
    }

    it('reads each field of an entry from its own slot and files it under the market its index stands for', () => {
      const { btc, sol, book } = withTable();
      const batch = packTicks([
        { index: sol, bid: 11, ask: 12, bidQty: 13, askQty: 14, exchangeTime: 15, receivedAt: 16 },
        { index: btc, bid: 21, ask: 22, bidQty: 23, askQty: 24, exchangeTime: 25, receivedAt: 26 },
      ]);
      expect(batch.length).toBe(2 * TICK_STRIDE);
      expect(book.applyBatch(batch)).toBe(0);
      expect(book.get('binance', 'SPOT', 'SOL-USDT')).toEqual({
        exchange: 'binance', market: 'SPOT', ticker: 'SOL-USDT', bid: 11, ask: 12, bidQty: 13, askQty: 14, exchangeTime: 15, receivedAt: 16,
      });
      expect(book.get('gate', 'SPOT', 'BTC-USDT')).toEqual({
        exchange: 'gate', market: 'SPOT', ticker: 'BTC-USDT', bid: 21, ask: 22, bidQty: 23, askQty: 24, exchangeTime: 25, receivedAt: 26,
      });
      expect(book.get('okx', 'FUTURES', 'ETH-USDT')).toBeUndefined();
      expect(book.size).toBe(2);
      expect(book.lastMessageAt('gate')).toBe(26);
      expect(book.tickCounts).toMatchObject({ binance: 1, gate: 1, okx: 0 });
    });

    it('turns a missing exchange time (NaN) into null, keeping a zero', () => {
      const { eth, btc, book } = withTable();
      book.applyBatch(packTicks([
        { index: eth, bid: 1, ask: 2, bidQty: 3, askQty: 4, exchangeTime: null, receivedAt: 5 },
        { index: btc, bid: 1, ask: 2, bidQty: 3, askQty: 4, exchangeTime: 0, receivedAt: 5 },
      ]));
      expect(book.get('okx', 'FUTURES', 'ETH-USDT')?.exchangeTime).toBeNull();
      expect(book.get('gate', 'SPOT', 'BTC-USDT')?.exchangeTime).toBe(0);
    });

    it('skips and counts entries whose index the table does not know, applying the rest', () => {
      const { eth, book } = withTable();
      const entry = { bid: 1, ask: 2, bidQty: 3, askQty: 4, exchangeTime: null, receivedAt: 5 };
      const unknown = book.applyBatch(packTicks([{ ...entry, index: 3 }, { ...entry, index: eth }, { ...entry, index: 900 }]));
      expect(unknown).toBe(2);
      expect(book.size).toBe(1);
      expect(book.get('okx', 'FUTURES', 'ETH-USDT')?.bid).toBe(1);
    });

    it('publishes the entries on the bus in the batch order, the stored object being the one published', () => {
      const { eth, btc, book, bus } = withTable();
      const seen: QuoteTick[] = [];
      bus.ticks.subscribe((t) => seen.push(t));
      const entry = { bid: 1, ask: 2, bidQty: 3, askQty: 4, exchangeTime: null, receivedAt: 5 };
      book.applyBatch(packTicks([{ ...entry, index: btc }, { ...entry, index: eth, bid: 7 }, { ...entry, index: btc, bid: 8 }]));
      expect(seen.map((t) => [t.exchange, t.bid])).toEqual([['gate', 1], ['okx', 7], ['gate', 8]]);
      expect(book.get('gate', 'SPOT', 'BTC-USDT')).toBe(seen[2]);
    });

    it('builds every quote with one hidden class', () => {
      const { table, book } = withTable();
      const entries = Array.from({ length: 40 }, (_, i) => ({
        index: table.indexOf({ exchange: 'bitget', market: 'SPOT', ticker: `C${i}-USDT` }),
        bid: 100 + i / 7, ask: 101 + i / 7, bidQty: 1, askQty: 2, exchangeTime: i % 2 ? null : i, receivedAt: 9_000,
      }));
      book.applyBatch(packTicks(entries));
      const stored = entries.map((_, i) => book.get('bitget', 'SPOT', `C${i}-USDT`));
      expect(stored.every((q) => q !== undefined)).toBe(true);
      expect(shareOneHiddenClass(stored.filter((q) => q !== undefined))).toBe(true);
      expect(shareOneHiddenClass([...book.snapshot()])).toBe(true);
    });
  });
});
