import { APR_WINDOWS_DAYS, NO_SETTLED_STATS, settledStats, type Settlement, type SettledStats } from './funding-history.engine.js';

/** The settled figures of one perpetual, as the ranking and the spreads read them. */
export interface SettledFigures extends SettledStats {
  /** Unix ms of the last interval change seen, or null. */
  intervalChangedAt: number | null;
}

const DAY_MS = 86_400_000;
/** The longest window any figure reads. */
export const CACHE_DAYS = 30;

interface Computed {
  stats: SettledStats;
  /** The figures hold until a payment leaves one of the windows. */
  validUntil: number;
}

const keyOf = (exchange: string, ticker: string): string => `${exchange}|${ticker}`;

/** When the first payment leaves a window, from the oldest payment each window holds. */
function validUntilOf(series: readonly Settlement[], now: number): number {
  let until = Infinity;
  for (const days of APR_WINDOWS_DAYS) {
    const from = now - days * DAY_MS;
    const oldest = series.find((s) => s.settledAt > from && s.settledAt <= now);
    if (oldest) until = Math.min(until, oldest.settledAt + days * DAY_MS);
  }
  const next = series.find((s) => s.settledAt > now);
  return next ? Math.min(until, next.settledAt) : until;
}

/**
 * One perpetual's payments, oldest first, in three typed columns: 17 bytes a payment where an
 * object with its numbers boxed costs a few hundred (1,510 perpetuals with up to 720 hourly
 * payments each came to about 300 MB of serving heap; BENCHMARKS.md, "Service memory").
 */
class PaymentSeries {
  private constructor(
    readonly settledAt: Float64Array,
    readonly rate: Float64Array,
    readonly intervalHours: Float32Array,
  ) {}

  static readonly EMPTY = new PaymentSeries(new Float64Array(0), new Float64Array(0), new Float32Array(0));

  /** Packs payments already sorted by time with one payment per time. */
  static of(sorted: readonly Settlement[]): PaymentSeries {
    const n = sorted.length;
    const series = new PaymentSeries(new Float64Array(n), new Float64Array(n), new Float32Array(n));
    sorted.forEach((s, i) => {
      series.settledAt[i] = s.settledAt;
      series.rate[i] = s.rate;
      series.intervalHours[i] = s.intervalHours;
    });
    return series;
  }

  get length(): number {
    return this.settledAt.length;
  }

  at(i: number): Settlement {
    return { settledAt: this.settledAt[i] ?? NaN, rate: this.rate[i] ?? NaN, intervalHours: this.intervalHours[i] ?? NaN };
  }

  toArray(): Settlement[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /** The index of the first payment at or after `at` (binary search). */
  firstAtOrAfter(at: number): number {
    return this.search((t) => t < at);
  }

  /** The index of the first payment after `at`. */
  firstAfter(at: number): number {
    return this.search((t) => t <= at);
  }

  /** The first index whose time `before` rejects (`before` holds for a prefix). */
  private search(before: (settledAt: number) => boolean): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.settledAt[mid] ?? Infinity)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The last 30 days of payments of every perpetual, in memory, and the figures computed from
 * them. Figures are recomputed only for perpetuals whose payments changed or whose windows moved
 * (a payment aged out), in slices that yield to the event loop, so a request never computes
 * them and a refresh never holds the loop for long.
 */
export class SettledFundingCache {
  private readonly series = new Map<string, PaymentSeries>();
  private readonly computed = new Map<string, Computed>();
  private readonly changes = new Map<string, number>();
  private readonly dirty = new Set<string>();

  /** Merges payments (a payment at the same time is replaced), oldest first. */
  add(exchange: string, ticker: string, settlements: readonly Settlement[]): void {
    if (settlements.length === 0) return;
    const key = keyOf(exchange, ticker);
    const byTime = new Map((this.series.get(key)?.toArray() ?? []).map((s) => [s.settledAt, s]));
    for (const s of settlements) byTime.set(s.settledAt, { settledAt: s.settledAt, rate: s.rate, intervalHours: s.intervalHours });
    this.series.set(key, PaymentSeries.of([...byTime.values()].sort((a, b) => a.settledAt - b.settledAt)));
    this.dirty.add(key);
  }

  setIntervalChange(exchange: string, ticker: string, at: number): void {
    const key = keyOf(exchange, ticker);
    if ((this.changes.get(key) ?? -Infinity) < at) this.changes.set(key, at);
  }

  /** The payments held, oldest first (a copy). */
  settlements(exchange: string, ticker: string): Settlement[] {
    return this.seriesOf(exchange, ticker).toArray();
  }

  last(exchange: string, ticker: string): Settlement | undefined {
    const series = this.seriesOf(exchange, ticker);
    return series.length > 0 ? series.at(series.length - 1) : undefined;
  }

  /** The newest payment before `at`. */
  lastBefore(exchange: string, ticker: string, at: number): Settlement | undefined {
    const series = this.seriesOf(exchange, ticker);
    const i = series.firstAtOrAfter(at) - 1;
    return i >= 0 ? series.at(i) : undefined;
  }

  has(exchange: string, ticker: string, settledAt: number): boolean {
    const series = this.seriesOf(exchange, ticker);
    return series.settledAt[series.firstAtOrAfter(settledAt)] === settledAt;
  }

  get size(): number {
    return this.series.size;
  }

  /** The figures as of the last refresh (no arithmetic here: requests call it). */
  figures(exchange: string, ticker: string): SettledFigures {
    const key = keyOf(exchange, ticker);
    return { ...(this.computed.get(key)?.stats ?? NO_SETTLED_STATS), intervalChangedAt: this.changes.get(key) ?? null };
  }

  /**
   * Recomputes what changed or aged, drops payments older than 30 days, and yields to the event
   * loop every `slice` perpetuals. Returns how many perpetuals were recomputed.
   */
  async refresh(now: number, slice = 200): Promise<number> {
    const due: string[] = [];
    for (const key of this.series.keys()) {
      const c = this.computed.get(key);
      if (this.dirty.has(key) || !c || c.validUntil <= now) due.push(key);
    }
    for (let i = 0; i < due.length; i++) {
      const key = due[i] ?? '';
      const series = this.series.get(key) ?? PaymentSeries.EMPTY;
      const kept = series.toArray().slice(series.firstAfter(now - CACHE_DAYS * DAY_MS));
      if (kept.length < series.length) this.series.set(key, PaymentSeries.of(kept));
      this.computed.set(key, { stats: settledStats(kept, now), validUntil: validUntilOf(kept, now) });
      this.dirty.delete(key);
      if ((i + 1) % slice === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return due.length;
  }

  private seriesOf(exchange: string, ticker: string): PaymentSeries {
    return this.series.get(keyOf(exchange, ticker)) ?? PaymentSeries.EMPTY;
  }
}
