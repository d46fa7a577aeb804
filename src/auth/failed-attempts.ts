import type { Clock } from './stream-tickets.js';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client IP over the last minute. Once an IP reaches the limit it is
 * refused before any token is looked at, so guessing stops paying until its oldest failure is a
 * minute old. Counted per instance: N instances allow at most N times the limit.
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly now: Clock,
  ) {}

  /** Seconds until the IP may try again, or 0 when it may try now. */
  retryAfterSeconds(ip: string): number {
    const recent = this.recent(ip);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit] + WINDOW_MS - this.now()) / 1000));
  }

  record(ip: string): void {
    const recent = this.recent(ip);
    recent.push(this.now());
    this.failures.set(ip, recent);
    if (this.failures.size > 10_000) this.sweep();
  }

  private recent(ip: string): number[] {
    const since = this.now() - WINDOW_MS;
    return (this.failures.get(ip) ?? []).filter((t) => t > since);
  }

  private sweep(): void {
    for (const ip of [...this.failures.keys()]) if (this.recent(ip).length === 0) this.failures.delete(ip);
  }
}
