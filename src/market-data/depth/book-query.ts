import { AppError } from '../../common/errors/app-error.js';
import { type ExchangeName, type Market, oneOfExchanges, parseConfiguredExchange } from '../../market-model/exchanges.js';
import { toCanonicalTicker } from '../../market-model/ticker.js';

export const BOOK_400 = {
  exchange: (configured: readonly string[]) => oneOfExchanges('exchange', configured),
  market: 'market must be SPOT or FUTURES',
  ticker: 'ticker must be a ticker such as BTC-USDT',
} as const;
export const BOOK_NOT_HELD = 'book not held';
/** Held books a 404 names at most: a long list would bury the answer. */
export const BOOK_NOT_HELD_LISTED = 10;

/** Why a book cannot be had: the venue does not list the market, or the feeds that would bring it are off. */
export type BookNotHeldWhy = { market: Market; ticker: string } | 'feeds off';

/**
 * The 404 of GET /v1/market/books: a market the venue does not list, or the feeds are off. It says which books the
 * exchange holds (`SPOT BTC-USDT`, the first BOOK_NOT_HELD_LISTED in order and the count), or why
 * none is, so a client sees what it may ask for.
 */
export function bookNotHeld(exchange: ExchangeName, held: readonly string[] | null, why: BookNotHeldWhy): string {
  if (held === null) return `${BOOK_NOT_HELD}: order books are off (DEPTH_ENABLED=0)`;
  const reason = why === 'feeds off' ? ' the live feeds are off (ENABLED_WEBSOCKET=1 starts them);' : ` ${exchange} lists no ${why.market} market ${why.ticker};`;
  if (held.length === 0) return `${BOOK_NOT_HELD}:${reason} ${exchange} holds none now`;
  const books = `${held.length} book${held.length === 1 ? '' : 's'}`;
  const first = held.length > BOOK_NOT_HELD_LISTED ? `, the first ${BOOK_NOT_HELD_LISTED}` : '';
  return `${BOOK_NOT_HELD}:${reason} ${exchange} holds ${books}${first}: ${held.slice(0, BOOK_NOT_HELD_LISTED).join(', ')}`;
}

/** The 503s of GET /v1/market/books: a book asked for that cannot be answered yet. */
export const BOOK_503 = {
  full: (max: number) => `books on request are at their limit (${max} held at once); try again when one is released`,
  markets: (exchange: string) => `${exchange}'s market list cannot be read now; try again`,
  late: (exchange: string, waitMs: number) => `the book was asked of ${exchange} and did not arrive within ${waitMs / 1000} s; it is held now, try again`,
} as const;

export interface BookQuery {
  exchange: ExchangeName;
  market: Market;
  ticker: string;
}

/** Checks GET /v1/market/books' parameters in order (exchange, market, ticker); the first failure is the 400. */
export function parseBookQuery(query: Record<string, unknown>, configured: readonly ExchangeName[]): BookQuery {
  const exchange = parseConfiguredExchange(query.exchange, configured);
  if (exchange === null) throw AppError.invalid(BOOK_400.exchange(configured));
  const market = typeof query.market === 'string' ? query.market.trim().toUpperCase() : '';
  if (market !== 'SPOT' && market !== 'FUTURES') throw AppError.invalid(BOOK_400.market);
  const ticker = typeof query.ticker === 'string' ? toCanonicalTicker(query.ticker) : null;
  if (ticker === null) throw AppError.invalid(BOOK_400.ticker);
  return { exchange, market, ticker };
}
