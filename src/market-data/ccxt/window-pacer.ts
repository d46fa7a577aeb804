import type { Clock } from '../clock.js';

/**
 * At most `limit` dials per sliding window: a venue's allowance of new connections (okx: 3 per
 * second). A dial holds its slot from `acquire()` until the release it was given is called (the
 * socket opened or failed), and counts in the window from that moment: the venue sees the
 * connection request somewhere in between, so stamping the later end keeps any two requests a
 * window apart however late a loaded machine sends them. Waiters are served in order.
 */
export class WindowPacer {
  /** Release times of finished dials; `Infinity` for a dial still in flight. */
  private readonly taken: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Resolves when a dial may start, with the function to call once it has opened or failed. */
  acquire(): Promise<() => void> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async take(): Promise<() => void> {
    for (;;) {
      const now = this.clock.now();
      this.prune(now);
      if (this.taken.length < this.limit) {
        this.taken.push(Number.POSITIVE_INFINITY);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          // Any in-flight slot stands for this dial: they are alike until stamped.
          const i = this.taken.indexOf(Number.POSITIVE_INFINITY);
          if (i >= 0) this.taken[i] = this.clock.now();
          this.taken.sort((x, y) => x - y);
        };
      }
      const oldest = this.taken[0] ?? now;
      // Every slot in flight: look again shortly; else when the oldest leaves the window.
      await this.sleep(Number.isFinite(oldest) ? Math.max(1, oldest + this.windowMs - now) : Math.max(1, Math.floor(this.windowMs / 10)));
    }
  }

  private prune(now: number): void {
    while (this.taken.length > 0 && now - (this.taken[0] ?? 0) >= this.windowMs) this.taken.shift();
  }
}
