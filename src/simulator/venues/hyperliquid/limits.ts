import type { RestRequest } from '../protocol.js';
import { MINUTE, type VenueLimits } from '../venue-limits.js';

/** `info` request types that weigh 2; every other `info` request weighs 20 (the venue's table, ccxt's `byType`). */
const LIGHT_INFO = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);

/**
 * The weight of a call: `exchange` actions 1, `info` 2 or 20. The venue adds one per 20 rows
 * answered to some `info` types (fundingHistory among them), which is not known before the
 * answer: the simulator counts the base weight.
 */
function restWeight(req: RestRequest): number {
  if (req.path === '/exchange') return 1;
  const type = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>).type : undefined;
  return typeof type === 'string' && LIGHT_INFO.has(type) ? 2 : 20;
}

/** The venue's error frame for a websocket limit (it keeps the connection). */
const errorFrame = (text: string): unknown => ({ channel: 'error', data: text });

/**
 * hyperliquid's published websocket and REST limits as the strict simulator enforces them;
 * docs/venues.md gives the source of every figure, keep the two in step. Its caps are per IP:
 * connections and new connections are counted per IP here as there; the 1,000 subscriptions
 * across all connections are held per connection (one connection can reach them), and the 2,000
 * client messages a minute across all connections are not counted.
 */
export const LIMITS: VenueLimits = {
  subscriptionsPerConnection: { SPOT: 1000, FUTURES: 1000 },
  argsPerRequest: { SPOT: null, FUTURES: null },
  argsCharsPerRequest: { SPOT: null, FUTURES: null },
  maxFrameBytes: null,
  subscribeWithinMs: null,
  messagesPerSecond: { SPOT: null, FUTURES: null },
  subscribesPerHour: null,
  unsubscribesCountPerHour: false,
  connectionsPerWindow: { limit: 30, windowMs: MINUTE },
  openConnections: 10,
  // The client pings (`{"method":"ping"}`, answered `{"channel":"pong"}`); the venue sends none.
  serverPing: { SPOT: null, FUTURES: null },
  // The venue closes a connection it has sent nothing on for 60 s: a pong or a push resets it.
  idle: { timeoutMs: MINUTE, resetBy: 'ping-or-data' },
  lifetimeMs: null,
  overLimit: { kind: 'reply', payload: () => errorFrame('Cannot subscribe to more than 1000 channels.') },
  rest: {
    limit: 1_200,
    windowMs: MINUTE,
    bucket: () => 'ip',
    weight: restWeight,
    // Neither the answer's body nor a Retry-After is documented: a bare 429.
    tooMany: () => ({ status: 429, body: null }),
    sendsRetryAfter: false,
  },
  maintenance: () => ({ status: 503, body: null }),
};
