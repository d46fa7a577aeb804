import type { ExchangeName, Market } from '../market-data/exchanges.js';
import type { RestReply, RestRequest } from './exchanges/protocol.js';

/**
 * Each venue's published websocket and REST limits for what the service uses (best bid/ask and
 * public market data), as the strict simulator enforces them. docs/venues.md gives the source
 * of every figure; keep the two in step.
 */
export interface ServerPing {
  /** The venue sends a protocol ping this often ... */
  intervalMs: number;
  /** ... and drops a connection that has not answered with a pong this long after a ping. */
  timeoutMs: number;
}

export interface IdleRule {
  /** Dropped after this long without... */
  timeoutMs: number;
  /** ...a client ping (`ping`), or without a client ping and without data pushed (`ping-or-data`). */
  resetBy: 'ping' | 'ping-or-data';
}

/** What the venue does when a client goes over a websocket limit. */
export type OverLimit =
  | { kind: 'close'; code: number; reason: string }
  | { kind: 'reply'; payload: (limit: string, request: Record<string, unknown>) => unknown; close?: boolean };

export interface RestLimit {
  /** Weight allowed per window and per bucket. */
  limit: number;
  windowMs: number;
  /** The bucket a call counts against: per IP for the whole host, or per endpoint. */
  bucket(req: RestRequest): string;
  weight(req: RestRequest): number;
  /** The venue's answer beyond the limit (status 429 unless stated), with Retry-After added. */
  tooMany(retryAfterSeconds: number): RestReply;
  /** binance: a client that keeps calling during a Retry-After is banned with 418 for this long. */
  banMs?: number;
  banned?(untilMs: number): RestReply;
}

export interface VenueLimits {
  /** Subscriptions (streams, args) one connection may hold, per market. */
  subscriptionsPerConnection: Record<Market, number>;
  /** Args one subscribe request may carry (null: not limited). */
  argsPerRequest: Record<Market, number | null>;
  /** Messages a client may send per second on one connection, pings and pongs included (null: not limited). */
  messagesPerSecond: Record<Market, number | null>;
  /** Subscribe / unsubscribe requests per hour on one connection (null: not limited). */
  subscribesPerHour: number | null;
  /** New connections per IP within `connectWindowMs` (null: not limited). */
  connectionsPerWindow: { limit: number; windowMs: number } | null;
  /** Open connections per IP (null: not limited). */
  openConnections: number | null;
  serverPing: Record<Market, ServerPing | null>;
  idle: IdleRule | null;
  /** The venue closes every connection after this long (null: no forced lifetime). */
  lifetimeMs: number | null;
  overLimit: OverLimit;
  rest: RestLimit;
  /** REST answer while the venue is in maintenance (HTTP 503 and the venue's own code). */
  maintenance(): RestReply;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The policy close (1008) a venue sends when a connection breaks a documented rule. */
const policyClose = (reason: string): OverLimit => ({ kind: 'close', code: 1008, reason });

const isFutures = (req: RestRequest): boolean => req.host.startsWith('fapi.');

/** Request weights of the binance calls ccxt makes (binance.js `api` cost table × 1 = weight). */
function binanceWeight(req: RestRequest): number {
  const all = !req.query.has('symbol') && !req.query.has('symbols');
  switch (req.path) {
    case '/api/v3/exchangeInfo':
      return 20;
    case '/api/v3/ticker/24hr':
      return all ? 80 : 2;
    case '/fapi/v1/ticker/24hr':
      return all ? 40 : 1;
    case '/fapi/v1/premiumIndex':
      return all ? 10 : 1;
    case '/sapi/v1/capital/config/getall':
      return 10;
    default:
      return 1;
  }
}

const path = (req: RestRequest): string => req.path;

export const VENUE_LIMITS: Readonly<Record<ExchangeName, VenueLimits>> = {
  binance: {
    subscriptionsPerConnection: { SPOT: 1024, FUTURES: 200 },
    argsPerRequest: { SPOT: null, FUTURES: null },
    messagesPerSecond: { SPOT: 5, FUTURES: 10 },
    subscribesPerHour: null,
    connectionsPerWindow: { limit: 300, windowMs: 5 * MINUTE },
    openConnections: null,
    serverPing: { SPOT: { intervalMs: 20 * SECOND, timeoutMs: MINUTE }, FUTURES: { intervalMs: 3 * MINUTE, timeoutMs: 10 * MINUTE } },
    idle: null,
    lifetimeMs: DAY,
    overLimit: policyClose('Too many requests'),
    rest: {
      limit: 6_000,
      windowMs: MINUTE,
      // Spot and USDⓈ-M futures count weight separately: 6,000 and 2,400 per minute per IP.
      bucket: (req) => (isFutures(req) ? 'fapi' : 'api'),
      weight: binanceWeight,
      tooMany: (retryAfter) => ({
        status: 429,
        body: { code: -1003, msg: `Too many requests; current limit of IP(127.0.0.1) is exceeded, retry after ${retryAfter} s. Please use the websocket for live updates to avoid polling the API.` },
      }),
      banMs: 2 * MINUTE,
      banned: (until) => ({ status: 418, body: { code: -1003, msg: `Way too many requests; IP(127.0.0.1) banned until ${until}. Please use the websocket for live updates to avoid bans.` } }),
    },
    maintenance: () => ({ status: 503, body: { code: 1, msg: 'System is under maintenance.' } }),
  },
  bybit: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: 10, FUTURES: null },
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: null,
    connectionsPerWindow: { limit: 500, windowMs: 5 * MINUTE },
    openConnections: 1_000,
    serverPing: { SPOT: null, FUTURES: null },
    idle: { timeoutMs: 10 * MINUTE, resetBy: 'ping-or-data' },
    lifetimeMs: null,
    overLimit: {
      kind: 'reply',
      payload: (limit, request) => ({ success: false, ret_msg: `error:${limit}`, conn_id: 'sim', req_id: request.req_id ?? '', op: request.op ?? '' }),
    },
    rest: {
      limit: 600,
      windowMs: 5 * SECOND,
      bucket: () => 'ip',
      weight: () => 1,
      // Bybit's IP limit answers 403 "access too frequent" (ccxt bybit.js maps 403 to RateLimitExceeded).
      tooMany: () => ({ status: 403, body: { retCode: 10018, retMsg: 'access too frequent', result: {}, retExtInfo: {}, time: Date.now() } }),
    },
    maintenance: () => ({ status: 503, body: { retCode: 10016, retMsg: 'Server is under maintenance', result: {}, retExtInfo: {}, time: Date.now() } }),
  },
  okx: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: null, FUTURES: null },
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: 480,
    connectionsPerWindow: { limit: 3, windowMs: SECOND },
    openConnections: null,
    serverPing: { SPOT: null, FUTURES: null },
    idle: { timeoutMs: 30 * SECOND, resetBy: 'ping-or-data' },
    lifetimeMs: null,
    overLimit: { kind: 'reply', payload: () => ({ event: 'error', code: '60014', msg: 'Requests too frequent.', connId: 'sim' }), close: true },
    rest: {
      limit: 20,
      windowMs: 2 * SECOND,
      bucket: path,
      weight: () => 1,
      tooMany: () => ({ status: 429, body: { code: '50011', msg: 'Too Many Requests', data: [] } }),
    },
    maintenance: () => ({ status: 503, body: { code: '50001', msg: 'Service temporarily unavailable. Please try again later.', data: [] } }),
  },
  gate: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: null, FUTURES: null },
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: null,
    connectionsPerWindow: null,
    openConnections: 100,
    serverPing: { SPOT: null, FUTURES: null },
    idle: null,
    lifetimeMs: null,
    overLimit: policyClose('too many connections'),
    rest: {
      limit: 200,
      windowMs: 10 * SECOND,
      bucket: path,
      weight: () => 1,
      tooMany: () => ({ status: 429, body: { label: 'TOO_MANY_REQUESTS', message: 'Request Rate limit Exceeded' } }),
    },
    maintenance: () => ({ status: 503, body: { label: 'SERVER_ERROR', message: 'Service under maintenance' } }),
  },
  bitget: {
    subscriptionsPerConnection: { SPOT: 1_000, FUTURES: 1_000 },
    argsPerRequest: { SPOT: null, FUTURES: null },
    messagesPerSecond: { SPOT: 10, FUTURES: 10 },
    subscribesPerHour: 240,
    connectionsPerWindow: { limit: 300, windowMs: 5 * MINUTE },
    openConnections: 100,
    serverPing: { SPOT: null, FUTURES: null },
    idle: { timeoutMs: 2 * MINUTE, resetBy: 'ping' },
    lifetimeMs: DAY,
    overLimit: policyClose('Too many requests'),
    rest: {
      limit: 20,
      windowMs: SECOND,
      bucket: path,
      weight: () => 1,
      tooMany: () => ({ status: 429, body: { code: '429', msg: 'Too Many Requests', requestTime: Date.now(), data: null } }),
    },
    maintenance: () => ({ status: 503, body: { code: '40200', msg: 'Server upgrade, please try again later', requestTime: Date.now(), data: null } }),
  },
};

/** USDⓈ-M futures' own REST weight limit (spot's is the table's 6,000). */
export const BINANCE_FUTURES_WEIGHT_PER_MINUTE = 2_400;

export function restLimitOf(exchange: ExchangeName, bucket: string): number {
  return exchange === 'binance' && bucket === 'fapi' ? BINANCE_FUTURES_WEIGHT_PER_MINUTE : VENUE_LIMITS[exchange].rest.limit;
}
