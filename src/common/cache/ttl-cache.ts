export interface TtlCacheOptions<V> {
  /** How long a loaded value is served without asking the loader again; 0 stores nothing. */
  ttlMs: number;
  /** Entries kept at most; beyond it expired entries go first, then the least recently used. */
  maxEntries: number;
  /** Time source, so tests (and fake timers) control expiry. */
  now?: () => number;
  /** Which loaded values to keep; the rest are handed out once and not stored. Default: all. */
  shouldCache?: (value: V) => boolean;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A small in-process cache for values that are expensive to load and fine to reuse briefly.
 * Single-flight: concurrent misses on one key share one load, so a burst of requests (or many
 * stream ticks) for the same key makes one query. A failed load is not cached; everyone who
 * waited on it gets the error. Bounded by `maxEntries`, so memory does not grow with the
 * number of distinct keys. No timers: expiry is checked on access.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions<V>) {
    if (options.maxEntries < 1) throw new Error('maxEntries must be at least 1');
    this.now = options.now ?? Date.now;
  }

  /** The cached value of `key`, or the result of `load()`, shared by every concurrent caller. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.fresh(key);
    if (hit) return Promise.resolve(hit.value);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const loading = this.load(key, load);
    this.inFlight.set(key, loading);
    return loading;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Stored entries, expired ones included until they are next touched or evicted. */
  get size(): number {
    return this.entries.size;
  }

  private fresh(key: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    // Re-inserted so Map order is least-recently-used first.
    this.entries.set(key, entry);
    return entry;
  }

  private async load(key: string, load: () => Promise<V>): Promise<V> {
    try {
      const value = await load();
      this.store(key, value);
      return value;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private store(key: string, value: V): void {
    const { ttlMs, shouldCache } = this.options;
    if (ttlMs <= 0 || (shouldCache && !shouldCache(value))) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.options.maxEntries) this.evict();
  }

  private evict(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
