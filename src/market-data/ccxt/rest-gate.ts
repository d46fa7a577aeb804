import type { Clock } from '../clock.js';
import type { ExchangeName } from '../exchanges.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';

/** ccxt's classes for a venue's "too many requests" (429, binance's 418 ban, bybit's 403). */
const RATE_LIMITED = new Set(['RateLimitExceeded', 'DDoSProtection']);

export class RestPausedError extends Error {
  constructor(exchange: ExchangeName, readonly untilMs: number, now: number) {
    super(`${exchange}: REST paused for ${Math.ceil((untilMs - now) / 1000)} s after a rate-limit answer`);
    this.name = 'RestPausedError';
  }
}

/** The one method of a ccxt client every REST call goes through, after ccxt's own throttle. */
export interface FetchingClient {
  fetch(url: string, method?: string, headers?: unknown, body?: unknown): Promise<unknown>;
  last_response_headers?: unknown;
}

/**
 * Keeps one exchange's REST calls off the venue after it answers "too many requests": ccxt's
 * limiter paces calls but does not read Retry-After, and calling on during it turns binance's
 * 429 into a 418 ban. The gate sits on the client's `fetch`, so a call ccxt had already queued
 * in its own throttle is stopped too, right before it would be sent. Until the pause ends calls
 * fail at once (callers keep their last values and retry on their own timers); the pause is the
 * venue's Retry-After, at least an exponential backoff that grows with every consecutive
 * rate-limit answer.
 */
export class RestGate {
  private pausedUntil = 0;
  private strikes = 0;

  constructor(
    private readonly exchange: ExchangeName,
    private readonly clock: Clock,
    private readonly backoff: BackoffPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Puts the gate in front of every REST call of this client. */
  attach<C extends FetchingClient>(client: C): C {
    const send = client.fetch.bind(client);
    client.fetch = async (url, method, headers, body) => {
      const now = this.clock.now();
      if (now < this.pausedUntil) throw new RestPausedError(this.exchange, this.pausedUntil, now);
      try {
        const value = await send(url, method, headers, body);
        this.strikes = 0;
        return value;
      } catch (err) {
        if (err instanceof Error && RATE_LIMITED.has(err.name)) this.pause(retryAfterMs(client.last_response_headers));
        throw err;
      }
    };
    return client;
  }

  private pause(retryAfter: number | undefined): void {
    const wait = Math.max(retryAfter ?? 0, backoffDelay(this.strikes++, this.backoff, this.random));
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + wait);
  }
}

/** Retry-After in ms (delta seconds or an HTTP date), from ccxt's last response headers. */
export function retryAfterMs(headers: unknown, now = Date.now()): number | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const entry = Object.entries(headers as Record<string, unknown>).find(([name]) => name.toLowerCase() === 'retry-after');
  const raw = entry?.[1];
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(String(raw));
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
