import type { ExchangeName, Market } from '../market-model/exchanges.js';
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
  /**
   * ...a client ping (`ping`: any, text or protocol), the text `ping` alone (`text-ping`), or
   * without a client ping and without data pushed (`ping-or-data`).
   */
  resetBy: 'ping' | 'text-ping' | 'ping-or-data';
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
  /** The venue's answer beyond the limit (status 429 unless stated). */
  tooMany(retryAfterSeconds: number): RestReply;
  /** Only binance sends `Retry-After` (on its 429 and 418); the others send none. */
  sendsRetryAfter: boolean;
  /**
   * binance: a client that keeps calling during a Retry-After is banned with 418, first for this
   * long, each further ban twice the one before, up to `maxBanMs`.
   */
  banMs?: number;
  maxBanMs?: number;
  banned?(untilMs: number): RestReply;
  /**
   * bybit: after its 403 the IP must make no call for this long; a call within it is answered 403
   * again and the quiet time starts over. Without it the limit lifts when its window ends.
   */
  quietMs?: number;
}

export interface VenueLimits {
  /** Subscriptions (streams, args) one connection may hold, per market. */
  subscriptionsPerConnection: Record<Market, number>;
  /** Args one subscribe request may carry (null: not limited). */
  argsPerRequest: Record<Market, number | null>;
  /** Characters of one subscribe request's args, all together (null: not limited). */
  argsCharsPerRequest: Record<Market, number | null>;
  /** Bytes of one client frame (null: not limited). */
  maxFrameBytes: number | null;
  /** A connection that has not subscribed within this long is dropped (null: never). */
  subscribeWithinMs: number | null;
  /** How long before a service upgrade the venue sends its notice, then closes (null: it sends none). */
  upgradeNoticeMs: number | null;
  /** Messages a client may send per second on one connection, pings and pongs included (null: not limited). */
  messagesPerSecond: Record<Market, number | null>;
  /** Subscribe requests per hour on one connection (null: not limited). */
  subscribesPerHour: number | null;
  /** True when unsubscribe requests count against `subscribesPerHour` too (okx). */
  unsubscribesCountPerHour: boolean;
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

/** The weight of a depth snapshot: the first band whose limit covers the levels asked for. */
function depthWeight(limit: number, bands: readonly (readonly [number, number])[], beyond: number): number {
  return bands.find(([upTo]) => limit <= upTo)?.[1] ?? beyond;
}

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
    case '/api/v3/depth':
      return depthWeight(Number(req.query.get('limit') ?? 100), [[100, 5], [500, 25], [1000, 50]], 250);
    case '/fapi/v1/depth':
      return depthWeight(Number(req.query.get('limit') ?? 500), [[50, 2], [100, 5], [500, 10]], 20);
    default:
      return 1;
  }
}

const path = (req: RestRequest): string => req.path;

export const VENUE_LIMITS: Readonly<Record<ExchangeName, VenueLimits>> = {
  binance: {
    subscriptionsPerConnection: { SPOT: 1024, FUTURES: 1024 },
    argsPerRequest: { SPOT: null, FUTURES: null },
    argsCharsPerRequest: { SPOT: null, FUTURES: null },
    maxFrameBytes: null,
    subscribeWithinMs: null,
    upgradeNoticeMs: null,
    messagesPerSecond: { SPOT: 5, FUTURES: 10 },
    subscribesPerHour: null,
    unsubscribesCountPerHour: false,
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
      sendsRetryAfter: true,
      banMs: 2 * MINUTE,
      maxBanMs: 3 * DAY,
      banned: (until) => ({ status: 418, body: { code: -1003, msg: `Way too many requests; IP(127.0.0.1) banned until ${until}. Please use the websocket for live updates to avoid bans.` } }),
    },
    maintenance: () => ({ status: 503, body: { code: 1, msg: 'System is under maintenance.' } }),
  },
  bybit: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: 10, FUTURES: null },
    // The public spot socket refuses a subscribe whose args exceed 21,000 characters together; linear has no cap.
    argsCharsPerRequest: { SPOT: 21_000, FUTURES: null },
    maxFrameBytes: null,
    subscribeWithinMs: null,
    upgradeNoticeMs: null,
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: null,
    unsubscribesCountPerHour: false,
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
      sendsRetryAfter: false,
      quietMs: 10 * MINUTE,
    },
    maintenance: () => ({ status: 503, body: { retCode: 10016, retMsg: 'Server is under maintenance', result: {}, retExtInfo: {}, time: Date.now() } }),
  },
  okx: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: null, FUTURES: null },
    argsCharsPerRequest: { SPOT: null, FUTURES: null },
    // A subscribe frame's channels together may not exceed 64 KB.
    maxFrameBytes: 64 * 1024,
    subscribeWithinMs: 30 * SECOND,
    upgradeNoticeMs: MINUTE,
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: 480,
    unsubscribesCountPerHour: true,
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
      sendsRetryAfter: false,
    },
    maintenance: () => ({ status: 503, body: { code: '50001', msg: 'Service temporarily unavailable. Please try again later.', data: [] } }),
  },
  gate: {
    subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
    argsPerRequest: { SPOT: null, FUTURES: null },
    argsCharsPerRequest: { SPOT: null, FUTURES: null },
    maxFrameBytes: null,
    subscribeWithinMs: null,
    upgradeNoticeMs: null,
    messagesPerSecond: { SPOT: null, FUTURES: null },
    subscribesPerHour: null,
    unsubscribesCountPerHour: false,
    connectionsPerWindow: null,
    // No connection cap: the maintainers' 100 per host is advice, not a refusal.
    openConnections: null,
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
      sendsRetryAfter: false,
    },
    maintenance: () => ({ status: 503, body: { label: 'SERVER_ERROR', message: 'Service under maintenance' } }),
  },
  bitget: {
    subscriptionsPerConnection: { SPOT: 1_000, FUTURES: 1_000 },
    argsPerRequest: { SPOT: null, FUTURES: null },
    argsCharsPerRequest: { SPOT: null, FUTURES: null },
    maxFrameBytes: null,
    subscribeWithinMs: null,
    upgradeNoticeMs: null,
    messagesPerSecond: { SPOT: 10, FUTURES: 10 },
    subscribesPerHour: 240,
    unsubscribesCountPerHour: false,
    connectionsPerWindow: { limit: 300, windowMs: 5 * MINUTE },
    openConnections: 100,
    serverPing: { SPOT: null, FUTURES: null },
    // Only the text `ping` keeps a connection: protocol pings and data do not.
    idle: { timeoutMs: 2 * MINUTE, resetBy: 'text-ping' },
    lifetimeMs: DAY,
    overLimit: policyClose('Too many requests'),
    rest: {
      limit: 20,
      windowMs: SECOND,
      bucket: path,
      weight: () => 1,
      tooMany: () => ({ status: 429, body: { code: '429', msg: 'Too Many Requests', requestTime: Date.now(), data: null } }),
      sendsRetryAfter: false,
    },
    maintenance: () => ({ status: 503, body: { code: '40200', msg: 'Server upgrade, please try again later', requestTime: Date.now(), data: null } }),
  },
};

/** USDⓈ-M futures' own REST weight limit (spot's is the table's 6,000). */
export const BINANCE_FUTURES_WEIGHT_PER_MINUTE = 2_400;

/**
 * Endpoints with a limit of their own, on top of the venue's: the funding-history calls.
 * binance's GET /fapi/v1/fundingRate shares 500 calls per 5 minutes per IP with
 * GET /fapi/v1/fundingInfo; okx's GET /api/v5/public/funding-rate-history allows 10 calls per 2 s
 * per IP and instrument. bybit's, gate's and bitget's history calls count only against the
 * venue's own REST limit (bitget's is 20 per second per IP, the table's per-endpoint rule).
 */
export interface EndpointLimit {
  bucket: string;
  limit: number;
  windowMs: number;
}

export function endpointLimitOf(exchange: ExchangeName, req: RestRequest): EndpointLimit | undefined {
  if (exchange === 'binance' && (req.path === '/fapi/v1/fundingRate' || req.path === '/fapi/v1/fundingInfo')) {
    return { bucket: 'funding-history', limit: 500, windowMs: 5 * MINUTE };
  }
  if (exchange === 'okx' && req.path === '/api/v5/public/funding-rate-history') {
    return { bucket: `funding-rate-history|${req.query.get('instId') ?? ''}`, limit: 10, windowMs: 2 * SECOND };
  }
  return undefined;
}

export function restLimitOf(exchange: ExchangeName, bucket: string): number {
  return exchange === 'binance' && bucket === 'fapi' ? BINANCE_FUTURES_WEIGHT_PER_MINUTE : VENUE_LIMITS[exchange].rest.limit;
}
