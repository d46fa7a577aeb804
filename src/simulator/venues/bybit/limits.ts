import { MINUTE, SECOND, type VenueLimits } from '../venue-limits.js';

/**
 * bybit's published websocket and REST limits as the strict simulator enforces them; docs/venues.md
 * gives the source of every figure, keep the two in step.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: Number.POSITIVE_INFINITY, FUTURES: Number.POSITIVE_INFINITY },
  argsPerRequest: { SPOT: 10, FUTURES: null },
  // The public spot socket refuses a subscribe whose args exceed 21,000 characters together; linear has no cap.
  argsCharsPerRequest: { SPOT: 21_000, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
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
};
