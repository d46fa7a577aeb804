/** How a failed delivery waits before the next attempt. */
export interface BackoffPolicy {
  /** The first retry waits about this long; each further one twice the previous. */
  baseMs: number;
  /** No single wait is longer than this. */
  maxDelayMs: number;
  /** A notification still undelivered this long after its firing fails for good. */
  giveUpAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxDelayMs: 60 * 60_000, giveUpAfterMs: 24 * 60 * 60_000 };

/**
 * The wait after failed attempt number `attempt` (1 for the first): exponential with "equal
 * jitter", half fixed and half random, so retries of many notifications spread out but never
 * come sooner than half the nominal wait. A receiver's own wait (Retry-After, Telegram's
 * retry_after) is honoured as given, up to the longest single wait.
 */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, random: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), policy.maxDelayMs);
  const nominal = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  return Math.round(nominal / 2 + (nominal / 2) * random);
}

/** Whether a notification fired at `createdAt` is out of time at `now`. */
export function givesUp(createdAt: number, now: number, policy: BackoffPolicy): boolean {
  return now - createdAt >= policy.giveUpAfterMs;
}

/**
 * A Retry-After header in ms: delay-seconds (fractions allowed, as Discord sends them) or an HTTP
 * date; null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
