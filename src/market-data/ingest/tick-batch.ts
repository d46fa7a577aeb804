import type { QuoteSink } from '../ccxt/feed-connection.js';

/**
 * How quotes cross from an ingest worker to the serving thread: one Float64Array per batch,
 * TICK_STRIDE numbers per market, its buffer transferred (moved, not copied) with postMessage.
 * Layout of one entry: market index, bid, ask, bid qty, ask qty, exchange time (NaN: none),
 * local receive time. The market index refers to the table the serving thread owns
 * (`MarketTable`), so no string crosses per tick.
 */
export const TICK_STRIDE = 7;

export interface BatchPolicy {
  /**
   * A batch is sent at most this long after its first quote: by a timer when the feeds go
   * quiet, and by the next quote's receive time while a burst keeps the worker's loop busy
   * (a timer cannot fire until the burst's socket reads are done).
   */
  flushMs: number;
  /** ... or as soon as it holds this many markets. */
  maxMarkets: number;
}

export const DEFAULT_BATCH_POLICY: BatchPolicy = { flushMs: 5, maxMarkets: 2048 };

/** Counts since start, per exchange index: every quote the feeds delivered, and those overwritten within a batch. */
export interface AccumulatorCounts {
  received: number[];
  conflated: number[];
}

/**
 * Worker side: keeps the latest quote per market until the batch is sent (conflation: a market
 * quoted twice within one batch crosses once, with its latest values, and the overwritten quote
 * is counted). Storage is preallocated per market and grows only when markets are added, so a
 * quote costs a few typed-array writes and no allocation; one Float64Array is allocated per batch.
 */
export class TickAccumulator implements QuoteSink {
  private latest = new Float64Array(0);
  private pending = new Uint8Array(0);
  private order = new Int32Array(0);
  private exchangeOf = new Int8Array(0);
  private count = 0;
  private firstAt = 0;
  private timer: NodeJS.Timeout | null = null;
  readonly counts: AccumulatorCounts;

  constructor(
    exchanges: number,
    private readonly send: (batch: Float64Array) => void,
    private readonly policy: BatchPolicy = DEFAULT_BATCH_POLICY,
  ) {
    this.counts = { received: new Array<number>(exchanges).fill(0), conflated: new Array<number>(exchanges).fill(0) };
  }

  /** Declares markets (by index) and the exchange each belongs to, before they are quoted. */
  addMarkets(indexes: readonly number[], exchange: number): void {
    const needed = Math.max(this.exchangeOf.length, ...indexes.map((i) => i + 1));
    if (needed > this.exchangeOf.length) this.grow(needed);
    for (const i of indexes) this.exchangeOf[i] = exchange;
  }

  quote(index: number, bid: number, ask: number, bidQty: number, askQty: number, exchangeTime: number, receivedAt: number): void {
    const exchange = this.exchangeOf[index];
    if (exchange === undefined || exchange < 0) return;
    this.counts.received[exchange]++;
    if (this.pending[index] === 1) {
      this.counts.conflated[exchange]++;
    } else {
      this.pending[index] = 1;
      if (this.count === 0) this.firstAt = receivedAt;
      this.order[this.count++] = index;
    }
    const o = index * (TICK_STRIDE - 1);
    const latest = this.latest;
    latest[o] = bid;
    latest[o + 1] = ask;
    latest[o + 2] = bidQty;
    latest[o + 3] = askQty;
    latest[o + 4] = exchangeTime;
    latest[o + 5] = receivedAt;
    if (this.count >= this.policy.maxMarkets || receivedAt - this.firstAt >= this.policy.flushMs) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.policy.flushMs);
  }

  /** Sends what is pending now (also on shutdown, so the last quotes are not lost). */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.count === 0) return;
    const batch = new Float64Array(this.count * TICK_STRIDE);
    for (let k = 0; k < this.count; k++) {
      const index = this.order[k];
      this.pending[index] = 0;
      const from = index * (TICK_STRIDE - 1);
      const to = k * TICK_STRIDE;
      batch[to] = index;
      batch.set(this.latest.subarray(from, from + TICK_STRIDE - 1), to + 1);
    }
    this.count = 0;
    this.send(batch);
  }

  private grow(markets: number): void {
    const latest = new Float64Array(markets * (TICK_STRIDE - 1));
    latest.set(this.latest);
    const pending = new Uint8Array(markets);
    pending.set(this.pending);
    const order = new Int32Array(markets);
    order.set(this.order);
    const exchangeOf = new Int8Array(markets).fill(-1);
    exchangeOf.set(this.exchangeOf);
    [this.latest, this.pending, this.order, this.exchangeOf] = [latest, pending, order, exchangeOf];
  }
}

/** Serving side: one call per entry of a batch, in the order the worker first saw each market. */
export function forEachTick(
  batch: Float64Array,
  fn: (index: number, bid: number, ask: number, bidQty: number, askQty: number, exchangeTime: number | null, receivedAt: number) => void,
): void {
  for (let o = 0; o + TICK_STRIDE <= batch.length; o += TICK_STRIDE) {
    const exchangeTime = batch[o + 5];
    fn(
      batch[o],
      batch[o + 1],
      batch[o + 2],
      batch[o + 3],
      batch[o + 4],
      Number.isNaN(exchangeTime) ? null : exchangeTime,
      batch[o + 6],
    );
  }
}

/** One entry of a batch, as `packTicks` writes it. */
export interface TickEntry {
  index: number;
  bid: number;
  ask: number;
  bidQty: number;
  askQty: number;
  exchangeTime: number | null;
  receivedAt: number;
}

/** A batch of the given entries, in the workers' layout (in-memory sources and tests). */
export function packTicks(entries: readonly TickEntry[]): Float64Array {
  const batch = new Float64Array(entries.length * TICK_STRIDE);
  entries.forEach((e, k) => {
    batch.set([e.index, e.bid, e.ask, e.bidQty, e.askQty, e.exchangeTime ?? Number.NaN, e.receivedAt], k * TICK_STRIDE);
  });
  return batch;
}
