import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-data/exchanges.js';
import type { RestReply, RestRequest } from './exchanges/protocol.js';
import { restLimitOf, VENUE_LIMITS, type VenueLimits } from './venue-limits.js';

/**
 * Strict mode: the simulator holds clients to each venue's published limits (venue-limits.ts,
 * docs/venues.md) and counts every breach, so tests can assert that the service never breaks one.
 * It only judges what clients send (connections, messages, subscribes, REST calls) and closes
 * connections at the venue's lifetime; it never slows what the simulator pushes, so load mode
 * (SIM_RATE) is not throttled by it.
 */
export interface StrictSettings {
  enabled: boolean;
  /** Multiplies every venue duration but the lifetime: ping cadence and timeouts, idle timeouts, REST windows, bans. */
  timeScale: number;
  /** Multiplies the forced connection lifetime (24 h on binance and bitget), for tests. */
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
  | 'rest-ignored-retry-after';

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
 * ignoring Retry-After, and do not earn binance's 418.
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
  /** binance: 418 ban until then. */
  bannedUntil: number;
}

/** A subscribe request as every venue shapes it: `op`/`method`/`event` and its list of args. */
export interface SubscribeRequest {
  raw: Record<string, unknown>;
  args: number;
}

/** Reads a client frame as a subscribe request, whatever venue's shape; undefined when it is not one. */
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
  if (typeof verb !== 'string' || verb.toLowerCase() !== 'subscribe') return undefined;
  const list = msg.args ?? msg.params ?? msg.payload;
  return { raw: msg, args: Array.isArray(list) ? list.length : 0 };
}

/** True for a client's application ping: text `ping` (okx, bitget), `{op:"ping"}` (bybit), `*.ping` (gate). */
export function isClientPing(text: string): boolean {
  return text === 'ping' || /"op"\s*:\s*"ping"/.test(text) || /"channel"\s*:\s*"[a-z]+\.ping"/.test(text);
}

/** The market a connection serves, from the URL the client dialled (one socket for both on okx and bitget). */
export function marketOfConnection(exchange: ExchangeName, host: string, path: string): Market {
  switch (exchange) {
    case 'binance':
      return host.startsWith('fstream.') ? 'FUTURES' : 'SPOT';
    case 'bybit':
      return path.includes('/spot') ? 'SPOT' : 'FUTURES';
    case 'gate':
      return host.startsWith('fx-') ? 'FUTURES' : 'SPOT';
    case 'okx':
    case 'bitget':
      return 'SPOT';
  }
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
    return VENUE_LIMITS[exchange];
  }

  /** A venue duration as this simulator runs it. */
  scaled(ms: number): number {
    return Math.max(1, Math.round(ms * this.settings.timeScale));
  }

  lifetime(exchange: ExchangeName): number | null {
    const ms = VENUE_LIMITS[exchange].lifetimeMs;
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
    const limits = VENUE_LIMITS[exchange];
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
   * A REST call: the maintenance answer, or in strict mode the venue's 429 (418 for a binance
   * client that ignored a Retry-After) once the bucket's weight for the window is used up.
   * Undefined when the call may be served.
   */
  admitRest(exchange: ExchangeName, req: RestRequest): LimitedReply | undefined {
    if (this.maintenance.has(exchange)) return { ...VENUE_LIMITS[exchange].maintenance(), headers: {} };
    if (!this.settings.enabled) return undefined;
    const rule = VENUE_LIMITS[exchange].rest;
    const name = rule.bucket(req);
    const key = `${exchange}|${name}`;
    const now = this.now();
    const window = this.scaled(rule.windowMs);
    let bucket = this.buckets.get(key);
    if (!bucket || now - bucket.windowStart >= window) {
      bucket = { windowStart: now, used: 0, retryUntil: bucket?.retryUntil ?? 0, limitedAt: bucket?.limitedAt ?? 0, bannedUntil: bucket?.bannedUntil ?? 0 };
      this.buckets.set(key, bucket);
    }
    if (now < bucket.bannedUntil && rule.banned) {
      this.record(exchange, 'rest-ignored-retry-after', `${req.path} during a ban`);
      return { ...rule.banned(bucket.bannedUntil), headers: { 'retry-after': secondsUntil(bucket.bannedUntil, now) } };
    }
    if (now < bucket.retryUntil) {
      const retryAfter = secondsUntil(bucket.retryUntil, now);
      if (now - bucket.limitedAt < IN_FLIGHT_GRACE_MS) return { ...rule.tooMany(Number(retryAfter)), headers: { 'retry-after': retryAfter } };
      this.record(exchange, 'rest-ignored-retry-after', `${req.path} ${bucket.retryUntil - now} ms before Retry-After`);
      if (rule.banned && rule.banMs !== undefined) {
        bucket.bannedUntil = now + this.scaled(rule.banMs);
        return { ...rule.banned(bucket.bannedUntil), headers: { 'retry-after': secondsUntil(bucket.bannedUntil, now) } };
      }
      return { ...rule.tooMany(Number(secondsUntil(bucket.retryUntil, now))), headers: { 'retry-after': secondsUntil(bucket.retryUntil, now) } };
    }
    const limit = Math.max(1, Math.floor(restLimitOf(exchange, name) * this.settings.restScale));
    const weight = rule.weight(req);
    if (bucket.used + weight > limit) {
      bucket.retryUntil = bucket.windowStart + window;
      bucket.limitedAt = now;
      this.record(exchange, 'rest-rate-limit', `${req.path}: weight ${bucket.used + weight} of ${limit} per ${window} ms`);
      const retryAfter = secondsUntil(bucket.retryUntil, now);
      return { ...rule.tooMany(Number(retryAfter)), headers: { 'retry-after': retryAfter } };
    }
    bucket.used += weight;
    return undefined;
  }
}

/** Whole seconds, at least 1, as Retry-After carries them. */
function secondsUntil(until: number, now: number): string {
  return String(Math.max(1, Math.ceil((until - now) / 1000)));
}
