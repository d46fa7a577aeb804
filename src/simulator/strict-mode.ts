import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-model/exchanges.js';
import { simVenueOf } from './venues/index.js';
import type { RestReply, RestRequest } from './venues/protocol.js';
import type { VenueLimits } from './venues/venue-limits.js';

/**
 * Strict mode: the simulator holds clients to each venue's published limits (venues/<name>/limits.ts,
 * docs/venues.md) and counts every breach, so tests can assert that the service never breaks one.
 * It only judges what clients send (connections, messages, subscribes, REST calls) and closes
 * connections at the venue's lifetime; it never slows what the simulator pushes, so load mode
 * (SIM_RATE) is not throttled by it.
 */
export interface StrictSettings {
  enabled: boolean;
  /** Multiplies every venue duration but the lifetime: ping cadence and timeouts, idle timeouts, REST windows, bans. */
  timeScale: number;
  /** Multiplies the forced connection lifetime (24 h where a venue has one), for tests. */
  lifetimeScale: number;
  /** Multiplies every REST limit (weight per window), for tests that need a 429 quickly. */
  restScale: number;
}

export const DEFAULT_STRICT_SETTINGS: StrictSettings = { enabled: true, timeScale: 1, lifetimeScale: 1, restScale: 1 };

export type ViolationKind =
  | 'connections-per-window'
  | 'open-connections'
  | 'messages-per-second'
  | 'args-per-request'
  | 'subscriptions-per-connection'
  | 'subscribes-per-hour'
  | 'missed-pong'
  | 'idle'
  | 'rest-rate-limit'
  | 'rest-ignored-retry-after'
  | 'args-chars'
  | 'frame-size'
  | 'no-subscription';

export interface Violation {
  at: string;
  exchange: ExchangeName;
  kind: ViolationKind;
  detail: string;
}

export interface ViolationReport {
  total: number;
  byExchange: Record<string, Partial<Record<ViolationKind, number>>>;
  /** The latest violations, newest last (at most RECENT_VIOLATIONS). */
  recent: Violation[];
}

const RECENT_VIOLATIONS = 50;
/**
 * Requests that reach the venue this soon after its 429 were sent before the client could read
 * it (ccxt queues a market load's calls together): they get the 429 again but do not count as
 * ignoring Retry-After, and do not earn a ban.
 */
export const IN_FLIGHT_GRACE_MS = 1_000;

/** A REST answer with the headers it needs (Retry-After). */
export interface LimitedReply extends RestReply {
  headers: Record<string, string>;
}

interface RestBucket {
  windowStart: number;
  used: number;
  /** Retry-After given to the client runs until then. */
  retryUntil: number;
  /** When the last 429 was answered. */
  limitedAt: number;
  /** Banned until then (a venue that bans). */
  bannedUntil: number;
  /** Bans given so far (each twice as long as the one before). */
  bans: number;
}

/** REST calls the simulator received per exchange (Unix ms, newest last): what tests read to show no call came during a ban. */
const RECENT_REST_CALLS = 500;

/** A subscribe request as every venue shapes it: `op`/`method`/`event` and its list of args. */
export interface SubscribeRequest {
  raw: Record<string, unknown>;
  args: number;
  /** Characters of the args together (a string arg its length, any other its JSON). */
  argsChars: number;
  unsubscribe: boolean;
}

/** Reads a client frame as a subscribe or unsubscribe request, whatever venue's shape; undefined when it is neither. */
export function subscribeRequestOf(text: string): SubscribeRequest | undefined {
  if (!text.startsWith('{')) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const msg = raw as Record<string, unknown>;
  const verb = msg.op ?? msg.method ?? msg.event;
  const lower = typeof verb === 'string' ? verb.toLowerCase() : '';
  if (lower !== 'subscribe' && lower !== 'unsubscribe') return undefined;
  // One `subscription` object is one subscription (a venue that subscribes one channel a message).
  const list = msg.args ?? msg.params ?? msg.payload ?? (typeof msg.subscription === 'object' && msg.subscription !== null ? [msg.subscription] : undefined);
  const args: unknown[] = Array.isArray(list) ? list : [];
  const argsChars = args.reduce<number>((sum, a) => sum + (typeof a === 'string' ? a.length : JSON.stringify(a).length), 0);
  return { raw: msg, args: args.length, argsChars, unsubscribe: lower === 'unsubscribe' };
}

/** True for a client's application ping, in any venue's shape: text `ping`, `{op:"ping"}`, `{method:"ping"}`, or a `*.ping` channel. */
export function isClientPing(text: string): boolean {
  return text === 'ping' || /"(op|method)"\s*:\s*"ping"/.test(text) || /"channel"\s*:\s*"[a-z]+\.ping"/.test(text);
}

/** The market a connection serves, from the URL the client dialled (a socket for both markets counts as spot). */
export function marketOfConnection(exchange: ExchangeName, host: string, path: string): Market {
  return simVenueOf(exchange).marketOfUrl(host, path);
}

export class StrictMode {
  settings: StrictSettings;
  private readonly counts = new Map<ExchangeName, Map<ViolationKind, number>>();
  private recent: Violation[] = [];
  private readonly dials = new Map<ExchangeName, number[]>();
  private readonly buckets = new Map<string, RestBucket>();
  /** Exchanges in maintenance (POST /_sim/maintenance); applies in strict mode or not. */
  readonly maintenance = new Set<ExchangeName>();

  constructor(settings: Partial<StrictSettings> = {}, private readonly now: () => number = Date.now) {
    this.settings = { ...DEFAULT_STRICT_SETTINGS, ...settings };
  }

  limits(exchange: ExchangeName): VenueLimits {
    return simVenueOf(exchange).limits;
  }

  /** A venue duration as this simulator runs it. */
  scaled(ms: number): number {
    return Math.max(1, Math.round(ms * this.settings.timeScale));
  }

  lifetime(exchange: ExchangeName): number | null {
    const ms = this.limits(exchange).lifetimeMs;
    return ms === null ? null : Math.max(1, Math.round(ms * this.settings.lifetimeScale));
  }

  record(exchange: ExchangeName, kind: ViolationKind, detail: string): void {
    let byKind = this.counts.get(exchange);
    if (!byKind) this.counts.set(exchange, (byKind = new Map<ViolationKind, number>()));
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    this.recent.push({ at: new Date(this.now()).toISOString(), exchange, kind, detail });
    if (this.recent.length > RECENT_VIOLATIONS) this.recent = this.recent.slice(-RECENT_VIOLATIONS);
  }

  report(): ViolationReport {
    let total = 0;
    const byExchange: ViolationReport['byExchange'] = {};
    for (const exchange of EXCHANGE_NAMES) {
      const byKind = Object.fromEntries(this.counts.get(exchange) ?? []);
      for (const n of Object.values(byKind)) total += n;
      byExchange[exchange] = byKind;
    }
    return { total, byExchange, recent: [...this.recent] };
  }

  resetViolations(): void {
    this.counts.clear();
    this.recent = [];
  }

  /**
   * A new websocket connection: refused (HTTP status) when the venue is in maintenance, or in
   * strict mode beyond the venue's connections per window or open connections per IP.
   */
  admitConnection(exchange: ExchangeName, open: number): { ok: true } | { ok: false; status: number; reason: string } {
    if (this.maintenance.has(exchange)) return { ok: false, status: 503, reason: 'Service Unavailable' };
    if (!this.settings.enabled) return { ok: true };
    const limits = this.limits(exchange);
    if (limits.openConnections !== null && open >= limits.openConnections) {
      this.record(exchange, 'open-connections', `${open + 1} open connections, limit ${limits.openConnections}`);
      return { ok: false, status: 429, reason: 'Too Many Requests' };
    }
    const rule = limits.connectionsPerWindow;
    if (rule === null) return { ok: true };
    const now = this.now();
    const window = this.scaled(rule.windowMs);
    const recent = (this.dials.get(exchange) ?? []).filter((t) => now - t < window);
    if (recent.length >= rule.limit) {
      this.dials.set(exchange, recent);
      this.record(exchange, 'connections-per-window', `${recent.length + 1} connections within ${window} ms, limit ${rule.limit}`);
      return { ok: false, status: 429, reason: 'Too Many Requests' };
    }
    recent.push(now);
    this.dials.set(exchange, recent);
    return { ok: true };
  }

  /**
   * A REST call: the maintenance answer, or in strict mode the venue's 429 (its ban answer for a
   * client that ignored a Retry-After, where it bans) once the bucket's weight for the window is used up.
   * Undefined when the call may be served.
   */
  /** The next REST call of each of these exchanges is answered as over the venue's limit (`POST /_sim/rest-limit`). */
  readonly forcedRestLimit = new Set<ExchangeName>();
  private readonly restCalls = new Map<ExchangeName, number[]>();

  /** When each REST call reached the simulator, per exchange (the latest RECENT_REST_CALLS). */
  restCallTimes(): Record<string, number[]> {
    return Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, [...(this.restCalls.get(e) ?? [])]]));
  }

  admitRest(exchange: ExchangeName, req: RestRequest): LimitedReply | undefined {
    let calls = this.restCalls.get(exchange);
    if (!calls) this.restCalls.set(exchange, (calls = []));
    calls.push(Date.now());
    if (calls.length > RECENT_REST_CALLS) calls.shift();
    if (this.maintenance.has(exchange)) return { ...this.limits(exchange).maintenance(), headers: {} };
    if (!this.settings.enabled) return undefined;
    const rule = this.limits(exchange).rest;
    const name = rule.bucket(req);
    const main = { key: `${exchange}|${name}`, limit: rule.bucketLimits?.[name] ?? rule.limit, windowMs: rule.windowMs, weight: rule.weight(req) };
    // An endpoint with a limit of its own counts against both its own bucket and the venue's.
    const own = rule.endpoint?.(req);
    const endpoint = own && { key: `${exchange}|endpoint|${own.bucket}`, limit: own.limit, windowMs: own.windowMs, weight: 1 };
    const forced = this.forcedRestLimit.delete(exchange);
    for (const b of endpoint ? [endpoint, main] : [main]) {
      // A forced limit is the venue's own (its IP or endpoint limit), not an endpoint's extra one.
      const refused = this.admitBucket(exchange, req, b, forced && b === main);
      if (refused) return refused;
    }
    if (endpoint) this.charge(endpoint);
    this.charge(main);
    return undefined;
  }

  private bucketOf(key: string, window: number, now: number): RestBucket {
    let bucket = this.buckets.get(key);
    if (!bucket || now - bucket.windowStart >= window) {
      bucket = {
        windowStart: now, used: 0, retryUntil: bucket?.retryUntil ?? 0, limitedAt: bucket?.limitedAt ?? 0, bannedUntil: bucket?.bannedUntil ?? 0, bans: bucket?.bans ?? 0,
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private charge(b: { key: string; weight: number }): void {
    const bucket = this.buckets.get(b.key);
    if (bucket) bucket.used += b.weight;
  }

  private admitBucket(exchange: ExchangeName, req: RestRequest, b: { key: string; limit: number; windowMs: number; weight: number }, forced = false): LimitedReply | undefined {
    const rule = this.limits(exchange).rest;
    const now = this.now();
    const window = this.scaled(b.windowMs);
    const bucket = this.bucketOf(b.key, window, now);
    const headers = (until: number): Record<string, string> => (rule.sendsRetryAfter ? { 'retry-after': secondsUntil(until, now) } : {});
    const tooMany = (): LimitedReply => ({ ...rule.tooMany(Number(secondsUntil(bucket.retryUntil, now))), headers: headers(bucket.retryUntil) });
    if (now < bucket.bannedUntil && rule.banned) {
      this.record(exchange, 'rest-ignored-retry-after', `${req.path} during a ban`);
      return { ...rule.banned(bucket.bannedUntil), headers: headers(bucket.bannedUntil) };
    }
    if (now < bucket.retryUntil) {
      if (now - bucket.limitedAt < IN_FLIGHT_GRACE_MS) return tooMany();
      this.record(exchange, 'rest-ignored-retry-after', `${req.path} ${bucket.retryUntil - now} ms before the limit lifts`);
      if (rule.banned && rule.banMs !== undefined) {
        // The first ban, then each twice the last, up to the venue's longest.
        const ban = Math.min(rule.banMs * 2 ** bucket.bans, rule.maxBanMs ?? rule.banMs);
        bucket.bans++;
        bucket.bannedUntil = now + this.scaled(ban);
        return { ...rule.banned(bucket.bannedUntil), headers: headers(bucket.bannedUntil) };
      }
      // A call during a venue's quiet time starts it over.
      if (rule.quietMs !== undefined) bucket.retryUntil = now + this.scaled(rule.quietMs);
      return tooMany();
    }
    const limit = Math.max(1, Math.floor(b.limit * this.settings.restScale));
    if (forced || bucket.used + b.weight > limit) {
      bucket.retryUntil = rule.quietMs !== undefined ? now + this.scaled(rule.quietMs) : forced ? now + window : bucket.windowStart + window;
      bucket.limitedAt = now;
      const what = forced ? 'forced by POST /_sim/rest-limit' : `weight ${bucket.used + b.weight} of ${limit} per ${window} ms`;
      this.record(exchange, 'rest-rate-limit', `${req.path}: ${what}`);
      return tooMany();
    }
    return undefined;
  }
}

/** Whole seconds, at least 1, as Retry-After carries them. */
function secondsUntil(until: number, now: number): string {
  return String(Math.max(1, Math.ceil((until - now) / 1000)));
}
