import { describe, expect, it } from 'vitest';
import { compactOrderBooks } from './compact-books.js';
import { createExchangeClient } from './exchange-clients.js';

type Side = { index: Float64Array; storeArray(delta: number[]): void } & number[][];
type Book = { bids: Side; asks: Side };

/** A deterministic stream of level updates: inserts, size changes and deletes around 100. */
function* deltas(seed: number, count: number): Generator<[number, number]> {
  let s = seed;
  const next = (): number => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < count; i++) yield [Math.round((95 + next() * 10) * 100) / 100, next() < 0.3 ? 0 : Math.round(next() * 1000) / 100];
}

describe('compactOrderBooks: ccxt books with a small price index', () => {
  it('new sides start at the given rows; a side fed the same updates as ccxt\'s own book holds the same levels as it grows and shrinks', () => {
    const compacted = createExchangeClient('bybit', { simulatorUrl: 'http://127.0.0.1:9' });
    const plain = createExchangeClient('bybit', { simulatorUrl: 'http://127.0.0.1:9' });
    compactOrderBooks(compacted, 4);
    const small = compacted.orderBook({}, 50) as unknown as Book;
    const seeded = plain.orderBook({}, 50) as unknown as Book;
    expect(small.bids.index.length).toBe(4);
    expect(seeded.bids.index.length).toBe(1024);
    let deepest = 0;
    let removed = 0;
    let step = 0;
    for (const [price, size] of deltas(7, 3000)) {
      const before = small.bids.length;
      step++;
      for (const book of [small, seeded]) {
        book.bids.storeArray([price, size]);
        book.asks.storeArray([price + 20, size]);
      }
      if (step % 50 === 0) {
        expect(JSON.stringify(small.bids)).toBe(JSON.stringify(seeded.bids));
        expect(JSON.stringify(small.asks)).toBe(JSON.stringify(seeded.asks));
      }
      deepest = Math.max(deepest, small.bids.length);
      if (small.bids.length < before) removed++;
    }
    expect(JSON.stringify(small)).toBe(JSON.stringify(seeded));
    // The index grew past its 4 rows (by ccxt's doubling) and levels were deleted on the way.
    expect(deepest).toBeGreaterThan(100);
    expect(small.bids.index.length).toBeGreaterThan(deepest);
    expect(removed).toBeGreaterThan(100);
  });

  it('every factory ccxt builds books with (counted and indexed books too)', () => {
    const client = createExchangeClient('bitget', { simulatorUrl: 'http://127.0.0.1:9' });
    compactOrderBooks(client, 8);
    for (const book of [client.orderBook(), client.countedOrderBook(), client.indexedOrderBook()] as unknown as Book[]) {
      expect([book.bids.index.length, book.asks.index.length]).toEqual([8, 8]);
    }
  });
});
