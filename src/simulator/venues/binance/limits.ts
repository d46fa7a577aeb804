import type { RestRequest } from '../protocol.js';
import { DAY, MINUTE, SECOND, depthWeight, policyClose, type VenueLimits } from '../venue-limits.js';

const isFutures = (req: RestRequest): boolean => req.host.startsWith('fapi.');

/** Request weights of the calls ccxt makes (binance.js `api` cost table × 1 = weight). */
function restWeight(req: RestRequest): number {
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

/**
 * binance's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: 1024, FUTURES: 1024 },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
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
    weight: restWeight,
    tooMany: (retryAfter) => ({
      status: 429,
      body: { code: -1003, msg: `Too many requests; current limit of IP(127.0.0.1) is exceeded, retry after ${retryAfter} s. Please use the websocket for live updates to avoid polling the API.` },
    }),
    // USDⓈ-M futures' own weight limit (spot's is `limit`).
    bucketLimits: { fapi: 2_400 },
    // GET /fapi/v1/fundingRate shares 500 calls per 5 minutes per IP with GET /fapi/v1/fundingInfo.
    endpoint: (req) => (req.path === '/fapi/v1/fundingRate' || req.path === '/fapi/v1/fundingInfo'
      ? { bucket: 'funding-history', limit: 500, windowMs: 5 * MINUTE }
      : undefined),
    sendsRetryAfter: true,
    banMs: 2 * MINUTE,
    maxBanMs: 3 * DAY,
    banned: (until) => ({ status: 418, body: { code: -1003, msg: `Way too many requests; IP(127.0.0.1) banned until ${until}. Please use the websocket for live updates to avoid bans.` } }),
  },
  maintenance: () => ({ status: 503, body: { code: 1, msg: 'System is under maintenance.' } }),
};
