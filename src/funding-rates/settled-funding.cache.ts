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
 * The last 30 days of payments of every perpetual, in memory, and the figures computed from
 * them. Figures are recomputed only for perpetuals whose payments changed or whose windows moved
 * (a payment aged out), in slices that yield to the event loop, so a request never computes
 * them and a refresh never holds the loop for long.
 */
export class SettledFundingCache {
  private readonly series = new Map<string, Settlement[]>();
  private readonly computed = new Map<string, Computed>();
  private readonly changes = new Map<string, number>();
  private readonly dirty = new Set<string>();

  /** Merges payments (a payment at the same time is replaced), oldest first. */
  add(exchange: string, ticker: string, settlements: readonly Settlement[]): void {
    if (settlements.length === 0) return;
    const key = keyOf(exchange, ticker);
    const byTime = new Map((this.series.get(key) ?? []).map((s) => [s.settledAt, s]));
    for (const s of settlements) byTime.set(s.settledAt, s);
    this.series.set(key, [...byTime.values()].sort((a, b) => a.settledAt - b.settledAt));
    this.dirty.add(key);
  }

  setIntervalChange(exchange: string, ticker: string, at: number): void {
    const key = keyOf(exchange, ticker);
    if ((this.changes.get(key) ?? -Infinity) < at) this.changes.set(key, at);
  }

  settlements(exchange: string, ticker: string): readonly Settlement[] {
    return this.series.get(keyOf(exchange, ticker)) ?? [];
  }

  last(exchange: string, ticker: string): Settlement | undefined {
    return this.series.get(keyOf(exchange, ticker))?.at(-1);
  }

  has(exchange: string, ticker: string, settledAt: number): boolean {
    return this.settlements(exchange, ticker).some((s) => s.settledAt === settledAt);
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
      const kept = (this.series.get(key) ?? []).filter((s) => s.settledAt > now - CACHE_DAYS * DAY_MS);
      this.series.set(key, kept);
      this.computed.set(key, { stats: settledStats(kept, now), validUntil: validUntilOf(kept, now) });
      this.dirty.delete(key);
      if ((i + 1) % slice === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return due.length;
  }
}
