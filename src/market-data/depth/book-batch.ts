import type { BookLevel, FlatLevels } from './depth-book.js';

/**
 * Books cross from an ingest worker to the serving thread as one transferred Float64Array per
 * flush: per book its id (the serving thread's), the local time it was seen, the bid and ask
 * counts, then the bids and the asks as price, quantity pairs. No strings, no per-level objects.
 */
export class BookBatchWriter {
  private values: number[] = [];

  get size(): number {
    return this.values.length;
  }

  add(id: number, receivedAt: number, bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    const v = this.values;
    v.push(id, receivedAt, bids.length, asks.length);
    for (const [price, qty] of bids) v.push(price, qty);
    for (const [price, qty] of asks) v.push(price, qty);
  }

  /** The batch so far, and a fresh start; null when empty. */
  take(): Float64Array | null {
    if (this.values.length === 0) return null;
    const out = Float64Array.from(this.values);
    this.values = [];
    return out;
  }
}

/** Each side comes flat: price, quantity pairs, best first. */
export type BookVisitor = (id: number, receivedAt: number, bids: FlatLevels, asks: FlatLevels) => void;

/** Calls `visit` for each book of the batch, in order; stops at a truncated record. */
export function forEachBook(batch: Float64Array, visit: BookVisitor): void {
  let i = 0;
  while (i + 4 <= batch.length) {
    const id = batch[i];
    const receivedAt = batch[i + 1];
    const bidCount = batch[i + 2];
    const askCount = batch[i + 3];
    const end = i + 4 + 2 * (bidCount + askCount);
    if (end > batch.length) return;
    const bids = levels(batch, i + 4, bidCount);
    const asks = levels(batch, i + 4 + 2 * bidCount, askCount);
    visit(id, receivedAt, bids, asks);
    i = end;
  }
}

/** A plain array of numbers (unboxed doubles), not a view: a held book must not keep the whole batch alive. */
function levels(batch: Float64Array, from: number, count: number): number[] {
  const out: number[] = [];
  for (let k = from; k < from + 2 * count; k++) out.push(batch[k]);
  return out;
}
