import { SECOND, byPath, policyClose, type VenueLimits } from '../venue-limits.js';

/**
 * gate's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
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
    bucket: byPath,
    weight: () => 1,
    tooMany: () => ({ status: 429, body: { label: 'TOO_MANY_REQUESTS', message: 'Request Rate limit Exceeded' } }),
    sendsRetryAfter: false,
  },
  maintenance: () => ({ status: 503, body: { label: 'SERVER_ERROR', message: 'Service under maintenance' } }),
};
