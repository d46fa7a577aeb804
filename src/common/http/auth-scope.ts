/**
 * Which credential a route asks for when AUTH_MODE is `token` (rules: auth), by its path: one table, read by
 * the auth guard and by the OpenAPI document, so the two cannot disagree.
 *
 * - `open`: never a token (liveness, metrics).
 * - `market`: market-wide data, the same for every caller; open unless AUTH_PUBLIC_MARKET is off.
 * - `token`: any valid token, whatever its e-mail (writes to market-wide data).
 * - `user`: a token, and the request acts only on the token's e-mail.
 *
 * A path in no list is `user`: a new route is locked until someone decides otherwise.
 */
export type AuthScope = 'open' | 'market' | 'token' | 'user';

const OPEN_PREFIXES = ['/health', '/metrics'];
const MARKET_PREFIXES = ['/v1/realtime', '/v1/funding-rates', '/v1/opportunity-history', '/v1/arbitrage', '/v1/market'];
/** Market-wide, but a write: the caller must hold some token. */
const TOKEN_ROUTES = new Set(['POST /v1/opportunity-history/import', 'POST /v1/arbitrage/future/crossing-counts', 'POST /v1/auth/stream-ticket']);

export function authScopeOf(method: string, path: string): AuthScope {
  const under = (prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
  if (OPEN_PREFIXES.some(under)) return 'open';
  if (TOKEN_ROUTES.has(`${method.toUpperCase()} ${path}`)) return 'token';
  if (MARKET_PREFIXES.some(under)) return 'market';
  return 'user';
}

/** The 401 text, with `WWW-Authenticate: Bearer`. */
export const MISSING_OR_INVALID_TOKEN = 'missing or invalid token';
/** The 403 text: the request names an e-mail (or a looker of one) that is not the token's. */
export const EMAIL_MISMATCH = 'email does not match the token';
/** The 429 text once a client IP failed AUTH_FAILED_PER_MINUTE authentications in a minute. */
export const TOO_MANY_FAILED_AUTHENTICATIONS = 'too many failed authentications';

/** The event streams, where a `?ticket=` may stand for the bearer header EventSource cannot send. */
export function isStreamPath(path: string): boolean {
  return path.startsWith('/v1/realtime/') || path.endsWith('/stream');
}
