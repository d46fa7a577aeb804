import { AppError } from '../../common/errors/app-error.js';
import { type ExchangeName, type Market, parseExchangeName } from '../../market-model/exchanges.js';
import { toCanonicalTicker } from '../../market-model/ticker.js';

export const BOOK_400 = {
  exchange: (configured: readonly string[]) => `exchange must be one of ${configured.join(', ')}`,
  market: 'market must be SPOT or FUTURES',
  ticker: 'ticker must be a ticker such as BTC-USDT',
} as const;
export const BOOK_NOT_HELD = 'book not held';

export interface BookQuery {
  exchange: ExchangeName;
  market: Market;
  ticker: string;
}

/** Checks GET /v1/market/books' parameters in order (exchange, market, ticker); the first failure is the 400. */
export function parseBookQuery(query: Record<string, unknown>, configured: readonly ExchangeName[]): BookQuery {
  const exchange = typeof query.exchange === 'string' ? parseExchangeName(query.exchange) : null;
  if (exchange === null || !configured.includes(exchange)) throw AppError.invalid(BOOK_400.exchange(configured));
  const market = typeof query.market === 'string' ? query.market.trim().toUpperCase() : '';
  if (market !== 'SPOT' && market !== 'FUTURES') throw AppError.invalid(BOOK_400.market);
  const ticker = typeof query.ticker === 'string' ? toCanonicalTicker(query.ticker) : null;
  if (ticker === null) throw AppError.invalid(BOOK_400.ticker);
  return { exchange, market, ticker };
}
