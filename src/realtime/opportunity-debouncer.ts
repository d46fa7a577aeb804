/**
 * The per-symbol debounce of the `debounce` rule: the first detection starts a timer; ticks meanwhile only
 * update state; when the timer fires the symbol's best CURRENT opportunity is emitted, if one
 * still exists. At most one event per symbol per period, at most one period late, never starved
 * by a steady stream of ticks (the timer is not restarted by them).
 */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class OpportunityDebouncer<T> {
  private readonly pending = new Map<string, unknown>();

  constructor(
    private readonly periodMs: number,
    private readonly evaluate: (symbol: string) => T | null,
    private readonly emit: (value: T) => void,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  /** Call after each tick of `symbol` when an opportunity is detected for it. */
  detected(symbol: string): void {
    if (this.pending.has(symbol)) return;
    const handle = this.scheduler.setTimeout(() => this.fire(symbol), this.periodMs);
    this.pending.set(symbol, handle);
  }

  isPending(symbol: string): boolean {
    return this.pending.has(symbol);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  clear(): void {
    for (const handle of this.pending.values()) this.scheduler.clearTimeout(handle);
    this.pending.clear();
  }

  private fire(symbol: string): void {
    this.pending.delete(symbol);
    const value = this.evaluate(symbol);
    if (value !== null) this.emit(value);
  }
}
