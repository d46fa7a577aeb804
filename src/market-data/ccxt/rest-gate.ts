import type { Clock } from '../clock.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import { venueOf } from '../../venues/registry.js';

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

/** A ban the gate started: no call to the venue until `untilMs`. */
export interface RestBan {
  exchange: ExchangeName;
  untilMs: number;
  /** The venue's answer, cut short. */
  reason: string;
}

const MAX_REASON_CHARS = 200;

/**
 * Keeps one exchange's REST calls off the venue after it answers "too many requests": ccxt's
 * limiter paces calls but reads no ban, and calling on during one turns binance's 429 into a
 * 418 ban and restarts bybit's 10 minutes. The gate sits on the client's `fetch`, so a call ccxt
 * had already queued in its own throttle is stopped too, right before it would be sent. Until
 * the ban ends calls fail at once (callers keep their last values and retry on their own timers).
 * The ban is the venue's rule (its folder's `restBan`: whether it sends Retry-After, its stated quiet time or at least its limit's window), at least an exponential backoff that grows with
 * every consecutive rate-limit answer; `onBan` hears of each ban once, when it starts or grows.
 */
export class RestGate {
  private pausedUntil = 0;
  private strikes = 0;

  constructor(
    private readonly exchange: ExchangeName,
    private readonly clock: Clock,
    private readonly backoff: BackoffPolicy,
    private readonly random: () => number = Math.random,
    private readonly onBan: (ban: RestBan) => void = () => undefined,
  ) {}

  /** Until when calls are refused (0 or past: not banned). */
  get bannedUntil(): number {
    return this.pausedUntil;
  }

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
        if (err instanceof Error && RATE_LIMITED.has(err.name)) this.pause(err, retryAfterMs(client.last_response_headers));
        throw err;
      }
    };
    return client;
  }

  private pause(err: Error, retryAfter: number | undefined): void {
    const rule = venueOf(this.exchange).restBan;
    // A ban answer (418) lasts at least `banMinMs`, whatever Retry-After says. ccxt raises a 429
    // and a 418 alike (DDoSProtection), so the status in the message tells them apart.
    const banned = rule.banMinMs !== undefined && /\b418\b|banned until/i.test(err.message) ? rule.banMinMs : 0;
    const given = rule.readsRetryAfter ? (retryAfter ?? 0) : 0;
    const wait = Math.max(given, banned, rule.minPauseMs, backoffDelay(this.strikes++, this.backoff, this.random));
    const until = this.clock.now() + wait;
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    // Query strings are left out: a signed call's carries its signature.
    this.onBan({ exchange: this.exchange, untilMs: until, reason: err.message.replace(/\?\S*/g, '').slice(0, MAX_REASON_CHARS) });
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
