import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache.js';

/** A loader whose calls are counted and whose results the test releases by hand. */
function deferredLoader<V>() {
  const calls: { resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  const load = vi.fn(
    () =>
      new Promise<V>((resolve, reject) => {
        calls.push({ resolve, reject });
      }),
  );
  return { load, calls };
}

describe('TtlCache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves a loaded value until the TTL passes, then loads again', async () => {
    const cache = new TtlCache<number>({ ttlMs: 55_000, maxEntries: 10 });
    let n = 0;
    const load = vi.fn(() => Promise.resolve(++n));
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(54_999);
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await cache.get('k', load)).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('single-flight: concurrent misses on one key make one load and share its result', async () => {
    const cache = new TtlCache<string>({ ttlMs: 5000, maxEntries: 10 });
    const { load, calls } = deferredLoader<string>();
    const results = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    calls[0]?.resolve('v');
    expect(await results).toEqual(['v', 'v', 'v']);
    expect(await cache.get('k', load)).toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('different keys load independently', async () => {
    const cache = new TtlCache<string>({ ttlMs: 5000, maxEntries: 10 });
    const load = vi.fn((key: string) => Promise.resolve(key.toUpperCase()));
    expect(await Promise.all([cache.get('a', () => load('a')), cache.get('b', () => load('b'))])).toEqual(['A', 'B']);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a failed load is not cached: every waiter gets the error, the next call loads again', async () => {
    const cache = new TtlCache<string>({ ttlMs: 5000, maxEntries: 10 });
    const { load, calls } = deferredLoader<string>();
    const a = cache.get('k', load);
    const b = cache.get('k', load);
    calls[0]?.reject(new Error('db down'));
    await expect(a).rejects.toThrow('db down');
    await expect(b).rejects.toThrow('db down');
    const c = cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    calls[1]?.resolve('ok');
    expect(await c).toBe('ok');
  });

  it('shouldCache: a value it refuses is returned but not kept (concurrent callers still share it)', async () => {
    const cache = new TtlCache<string | null>({ ttlMs: 5000, maxEntries: 10, shouldCache: (v) => v !== null });
    const { load, calls } = deferredLoader<string | null>();
    const both = Promise.all([cache.get('k', load), cache.get('k', load)]);
    calls[0]?.resolve(null);
    expect(await both).toEqual([null, null]);
    const next = cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    calls[1]?.resolve('found');
    expect(await next).toBe('found');
    expect(cache.size).toBe(1);
  });

  it('ttlMs 0 stores nothing but still collapses concurrent misses', async () => {
    const cache = new TtlCache<number>({ ttlMs: 0, maxEntries: 10 });
    const { load, calls } = deferredLoader<number>();
    const both = Promise.all([cache.get('k', load), cache.get('k', load)]);
    calls[0]?.resolve(7);
    expect(await both).toEqual([7, 7]);
    expect(cache.size).toBe(0);
  });

  it('is bounded: beyond maxEntries the least recently used entry goes', async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxEntries: 3 });
    const load = vi.fn((key: string) => Promise.resolve(key));
    for (const key of ['a', 'b', 'c']) await cache.get(key, () => load(key));
    await cache.get('a', () => load('a')); // touch a: b is now the oldest
    await cache.get('d', () => load('d'));
    expect(cache.size).toBe(3);
    expect(load).toHaveBeenCalledTimes(4);
    await cache.get('a', () => load('a'));
    await cache.get('c', () => load('c'));
    expect(load).toHaveBeenCalledTimes(4);
    await cache.get('b', () => load('b'));
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('evicts expired entries before live ones', async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000, maxEntries: 2 });
    const load = vi.fn((key: string) => Promise.resolve(key));
    await cache.get('old', () => load('old'));
    vi.advanceTimersByTime(900);
    await cache.get('live', () => load('live'));
    vi.advanceTimersByTime(200); // old expired, live has 800 ms left
    await cache.get('new', () => load('new'));
    expect(cache.size).toBe(2);
    await cache.get('live', () => load('live'));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('memory does not grow with the number of distinct keys', async () => {
    const cache = new TtlCache<number>({ ttlMs: 60_000, maxEntries: 100 });
    for (let i = 0; i < 10_000; i += 1) await cache.get(`k${i}`, () => Promise.resolve(i));
    expect(cache.size).toBe(100);
  });

  it('delete and clear drop entries', async () => {
    const cache = new TtlCache<number>({ ttlMs: 60_000, maxEntries: 10 });
    await cache.get('a', () => Promise.resolve(1));
    await cache.get('b', () => Promise.resolve(2));
    cache.delete('a');
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a maxEntries below 1', () => {
    expect(() => new TtlCache<number>({ ttlMs: 1, maxEntries: 0 })).toThrow('maxEntries');
  });
});
