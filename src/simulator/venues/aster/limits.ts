import type { RestRequest } from '../protocol.js';
import { DAY, MINUTE, depthWeight, policyClose, type VenueLimits } from '../venue-limits.js';

const isFutures = (req: RestRequest): boolean => req.host.startsWith('fapi.');

/** Request weights of the calls ccxt makes (aster.js `api` cost table, the venue's weights). */
function restWeight(req: RestRequest): number {
  const all = !req.query.has('symbol');
  switch (req.path) {
    case '/api/v3/ticker/24hr':
    case '/fapi/v3/ticker/24hr':
      return all ? 40 : 1;
    case '/api/v3/depth':
    case '/fapi/v3/depth':
      return depthWeight(Number(req.query.get('limit') ?? 100), [[50, 2], [100, 5], [500, 10]], 20);
    default:
      return 1;
  }
}

/**
 * aster's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: 1024, FUTURES: 200 },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
  // Spot counts the client's pings and pongs too (the strict hub counts every client frame).
  messagesPerSecond: { SPOT: 5, FUTURES: 10 },
  subscribesPerHour: null,
  unsubscribesCountPerHour: false,
  // Not stated by the venue.
  connectionsPerWindow: null,
  openConnections: null,
  serverPing: { SPOT: { intervalMs: 3 * MINUTE, timeoutMs: 10 * MINUTE }, FUTURES: { intervalMs: 5 * MINUTE, timeoutMs: 15 * MINUTE } },
  idle: null,
  lifetimeMs: DAY,
  overLimit: policyClose('Too many requests'),
  rest: {
    limit: 1_200,
    windowMs: MINUTE,
    // Spot and perpetuals count weight apart: 1,200 and 2,400 per minute per IP.
    bucket: (req) => (isFutures(req) ? 'fapi' : 'api'),
    weight: restWeight,
    tooMany: (retryAfter) => ({
      status: 429,
      body: { code: -1003, msg: `Too many requests; current limit of IP(127.0.0.1) is exceeded, retry after ${retryAfter} s.` },
    }),
    bucketLimits: { fapi: 2_400 },
    // Stated on the spot page; the strict simulator sends it on both, the gate reads it where sent.
    sendsRetryAfter: true,
    banMs: 2 * MINUTE,
    maxBanMs: 3 * DAY,
    banned: (until) => ({ status: 418, body: { code: -1003, msg: `Way too many requests; IP(127.0.0.1) banned until ${until}.` } }),
  },
  maintenance: () => ({ status: 503, body: { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' } }),
};
