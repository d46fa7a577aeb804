import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TICK_STRIDE, TickAccumulator, forEachTick } from './tick-batch.js';

type Row = [index: number, bid: number, ask: number, bidQty: number, askQty: number, exchangeTime: number | null, receivedAt: number];

const rows = (batch: Float64Array): Row[] => {
  const out: Row[] = [];
  forEachTick(batch, (...row) => out.push(row));
  return out;
};

describe('TickAccumulator', () => {
  let sent: Float64Array[];
  let acc: TickAccumulator;

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    acc = new TickAccumulator(5, (b) => sent.push(b), { flushMs: 5, maxMarkets: 3 });
    acc.addMarkets([0, 1, 2, 3], 0);
    acc.addMarkets([7], 4);
  });

  afterEach(() => vi.useRealTimers());

  it('sends one batch flushMs after the first quote, entries in first-seen order', () => {
    acc.quote(7, 10, 11, 1, 2, 100, 200);
    acc.quote(1, 20, 21, 3, 4, NaN, 201);
    vi.advanceTimersByTime(4);
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.length).toBe(2 * TICK_STRIDE);
    expect(rows(sent[0] ?? new Float64Array())).toEqual([
      [7, 10, 11, 1, 2, 100, 200],
      [1, 20, 21, 3, 4, null, 201],
    ]);
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(1);
  });

  it('conflates: a market quoted twice in a batch crosses once with its latest values, and is counted', () => {
    acc.quote(1, 20, 21, 3, 4, 1, 201);
    acc.quote(1, 22, 23, 5, 6, 2, 202);
    acc.quote(7, 10, 11, 1, 2, 3, 203);
    acc.flush();
    expect(rows(sent[0] ?? new Float64Array())).toEqual([
      [1, 22, 23, 5, 6, 2, 202],
      [7, 10, 11, 1, 2, 3, 203],
    ]);
    expect(acc.counts.received).toEqual([2, 0, 0, 0, 1]);
    expect(acc.counts.conflated).toEqual([1, 0, 0, 0, 0]);
    // After the flush the market is new again: no conflation across batches.
    acc.quote(1, 24, 25, 5, 6, 4, 204);
    acc.flush();
    expect(rows(sent[1] ?? new Float64Array())).toEqual([[1, 24, 25, 5, 6, 4, 204]]);
    expect(acc.counts.conflated).toEqual([1, 0, 0, 0, 0]);
  });

  it('sends at once when a batch holds maxMarkets markets', () => {
    acc.quote(0, 1, 2, 1, 1, 1, 1);
    acc.quote(1, 1, 2, 1, 1, 1, 1);
    expect(sent).toHaveLength(0);
    acc.quote(2, 1, 2, 1, 1, 1, 1);
    expect(sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends as soon as a quote arrives flushMs after the batch began, timer or not (a burst blocks timers)', () => {
    acc.quote(0, 1, 2, 1, 1, 1, 1_000);
    acc.quote(1, 1, 2, 1, 1, 1, 1_004);
    expect(sent).toHaveLength(0);
    acc.quote(7, 1, 2, 1, 1, 1, 1_005);
    expect(rows(sent[0] ?? new Float64Array()).map((r) => r[0])).toEqual([0, 1, 7]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores markets it was not told about, and grows for markets added later', () => {
    acc.quote(5, 1, 2, 1, 1, 1, 1);
    acc.quote(99, 1, 2, 1, 1, 1, 1);
    acc.flush();
    expect(sent).toHaveLength(0);
    acc.addMarkets([99], 2);
    acc.quote(99, 1, 2, 1, 1, 1, 1);
    acc.quote(3, 5, 6, 1, 1, 1, 1);
    acc.flush();
    expect(rows(sent[0] ?? new Float64Array()).map((r) => r[0])).toEqual([99, 3]);
    expect(acc.counts.received).toEqual([1, 0, 1, 0, 0]);
  });

  it('flushes nothing when nothing is pending', () => {
    acc.flush();
    expect(sent).toHaveLength(0);
  });
});
