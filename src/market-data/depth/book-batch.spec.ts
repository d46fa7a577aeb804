import { describe, expect, it } from 'vitest';
import { BookBatchWriter, forEachBook } from './book-batch.js';

describe('book batches: books from a worker as one Float64Array', () => {
  it('round-trips ids, times and both sides, in order', () => {
    const writer = new BookBatchWriter();
    writer.add(7, 1000, [[101, 2], [100.5, 3]], [[102, 1]]);
    writer.add(9, 1001, [], [[5, 0.5], [6, 1.25]]);
    const batch = writer.take();
    expect(batch).toBeInstanceOf(Float64Array);
    const seen: unknown[] = [];
    forEachBook(batch as Float64Array, (id, at, bids, asks) => seen.push({ id, at, bids, asks }));
    expect(seen).toEqual([
      { id: 7, at: 1000, bids: [101, 2, 100.5, 3], asks: [102, 1] },
      { id: 9, at: 1001, bids: [], asks: [5, 0.5, 6, 1.25] },
    ]);
  });

  it('each side is a plain array of its own, not a view on the batch (a held book must not keep the batch alive)', () => {
    const writer = new BookBatchWriter();
    writer.add(3, 5, [[101, 2]], [[102, 1]]);
    const batch = writer.take() as Float64Array;
    const sides: unknown[] = [];
    forEachBook(batch, (_id, _at, bids, asks) => sides.push(bids, asks));
    batch.fill(0);
    expect(sides).toEqual([[101, 2], [102, 1]]);
    for (const side of sides) expect(Array.isArray(side)).toBe(true);
  });

  it('starts afresh after take; an empty writer gives null', () => {
    const writer = new BookBatchWriter();
    expect(writer.take()).toBeNull();
    writer.add(1, 1, [[1, 1]], []);
    writer.take();
    expect(writer.take()).toBeNull();
  });

  it('a truncated record is not read', () => {
    const writer = new BookBatchWriter();
    writer.add(1, 1, [[1, 1]], [[2, 1]]);
    const batch = (writer.take() as Float64Array).subarray(0, 6);
    const ids: number[] = [];
    forEachBook(batch, (id) => ids.push(id));
    expect(ids).toEqual([]);
  });
});
