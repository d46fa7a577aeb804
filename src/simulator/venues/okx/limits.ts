import { SECOND, byPath, type VenueLimits } from '../venue-limits.js';

/**
 * okx's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  // A subscribe frame's channels together may not exceed 64 KB.
  maxFrameBytes: 64 * 1024,
  // Refused with 60012 *(simulated code)*.
  frameRefusal: (limit) => ({ event: 'error', code: '60012', msg: `Illegal request: ${limit}`, connId: 'sim' }),
  subscribeWithinMs: 30 * SECOND,
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
    bucket: byPath,
    weight: () => 1,
    tooMany: () => ({ status: 429, body: { code: '50011', msg: 'Too Many Requests', data: [] } }),
    // GET /api/v5/public/funding-rate-history allows 10 calls per 2 s per IP and instrument.
    endpoint: (req) => (req.path === '/api/v5/public/funding-rate-history'
      ? { bucket: `funding-rate-history|${req.query.get('instId') ?? ''}`, limit: 10, windowMs: 2 * SECOND }
      : undefined),
    sendsRetryAfter: false,
  },
  maintenance: () => ({ status: 503, body: { code: '50001', msg: 'Service temporarily unavailable. Please try again later.', data: [] } }),
};
