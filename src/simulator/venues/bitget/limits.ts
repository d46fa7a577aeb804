import { DAY, MINUTE, SECOND, byPath, policyClose, type VenueLimits } from '../venue-limits.js';

/**
 * bitget's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: 1_000, FUTURES: 1_000 },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
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
    bucket: byPath,
    weight: () => 1,
    tooMany: () => ({ status: 429, body: { code: '429', msg: 'Too Many Requests', requestTime: Date.now(), data: null } }),
    sendsRetryAfter: false,
  },
  maintenance: () => ({ status: 503, body: { code: '40200', msg: 'Server upgrade, please try again later', requestTime: Date.now(), data: null } }),
};
