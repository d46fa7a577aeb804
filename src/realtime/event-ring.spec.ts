import { describe, expect, it } from 'vitest';
import { dataFrame } from '../common/sse/sse-frame.js';
import { EventRing } from './event-ring.js';

const ids = (frames: { id?: number }[]) => frames.map((f) => f.id);

describe('EventRing (the `streams` rule replay)', () => {
  it('replays the frames after the given id, oldest first', () => {
    const ring = new EventRing({ maxEvents: 10, maxAgeMs: 300_000 });
    for (let id = 1; id <= 5; id += 1) ring.push(id, 0, dataFrame({ id }, { id }), undefined);
    expect(ids(ring.after(2, 0))).toEqual([3, 4, 5]);
    expect(ids(ring.after(0, 0))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(ring.after(5, 0))).toEqual([]);
    expect(ids(ring.after(99, 0))).toEqual([]);
  });

  it('keeps only the last maxEvents', () => {
    const ring = new EventRing({ maxEvents: 3, maxAgeMs: 300_000 });
    for (let id = 1; id <= 7; id += 1) ring.push(id, 0, dataFrame({ id }, { id }), undefined);
    expect(ring.length).toBe(3);
    expect(ids(ring.after(0, 0))).toEqual([5, 6, 7]);
    expect(ids(ring.after(5, 0))).toEqual([6, 7]);
  });

  it('lets frames past maxAgeMs go as new ones arrive, with no replay asked (the soak)', () => {
    const ring = new EventRing({ maxEvents: 10_000, maxAgeMs: 1_000 });
    for (let id = 1; id <= 3_000; id += 1) ring.push(id, id, dataFrame({ id }, { id }), undefined);
    expect(ring.length).toBe(1_001); // ages 0 … 1,000 ms at t = 3,000
    const slots = (ring as unknown as { entries: unknown[] }).entries;
    expect(slots.filter((e) => e !== undefined)).toHaveLength(1_001);
    expect(ids(ring.after(0, 3_000))[0]).toBe(2_000);
  });

  it('drops frames older than maxAgeMs', () => {
    const ring = new EventRing({ maxEvents: 10, maxAgeMs: 1000 });
    ring.push(1, 0, dataFrame({}, { id: 1 }), undefined);
    ring.push(2, 500, dataFrame({}, { id: 2 }), undefined);
    ring.push(3, 1500, dataFrame({}, { id: 3 }), undefined);
    expect(ids(ring.after(0, 1400))).toEqual([2, 3]);
    expect(ids(ring.after(0, 2600))).toEqual([]);
  });

  it('a replay with a filter returns only the frames whose meta it keeps', () => {
    const ring = new EventRing<{ ticker: string }>({ maxEvents: 10, maxAgeMs: 300_000 });
    ['BTC', 'ETH', 'BTC', 'SOL'].forEach((ticker, i) => ring.push(i + 1, 0, dataFrame({ ticker }, { id: i + 1 }), { ticker }));
    expect(ids(ring.after(0, 0, (m) => m.ticker === 'BTC'))).toEqual([1, 3]);
    expect(ids(ring.after(1, 0, (m) => m.ticker === 'BTC'))).toEqual([3]);
    expect(ids(ring.after(0, 0))).toEqual([1, 2, 3, 4]);
  });
});
