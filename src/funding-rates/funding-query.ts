import { AppError } from '../common/errors/app-error.js';
import { oneOfExchanges, parseConfiguredExchange, type ExchangeName } from '../market-model/exchanges.js';
import { FUNDING_SORT_KEYS, type FundingSortKey } from './funding.engine.js';

/** The limits (rules: limits) and error texts (rules: errors) of GET /v1/funding-rates. */
export const FUNDING_LIMIT_DEFAULT = 100;
export const FUNDING_LIMIT_MAX = 500;
export const FUNDING_SYMBOL_MAX = 100;

export const FUNDING_400 = {
  exchange: (configured: readonly string[]) => oneOfExchanges('exchange', configured),
  symbol: `symbol must be at most ${FUNDING_SYMBOL_MAX} characters`,
  ticker: `ticker must be at most ${FUNDING_SYMBOL_MAX} characters`,
  sort: `sort must be one of ${FUNDING_SORT_KEYS.join(', ')}`,
  limit: `limit must be an integer from 1 to ${FUNDING_LIMIT_MAX}`,
  offset: 'offset must be an integer of 0 or more',
} as const;

export interface FundingQuery {
  exchange: ExchangeName | null;
  /** Upper case without separators, matched against `BASEQUOTE`; null matches everything. */
  symbol: string | null;
  /** `ticker`, the same filter under the name the rest of the API uses; both given, both apply. */
  ticker: string | null;
  sort: FundingSortKey;
  limit: number;
  offset: number;
}

export type RawFundingQuery = Partial<Record<'exchange' | 'symbol' | 'ticker' | 'sort' | 'limit' | 'offset', unknown>>;

const DIGITS = /^\d+$/;
const SEPARATORS = /[-/_:\s]/g;

/** `BTC-USDT` → `BTCUSDT`: the form a symbol filter is matched in, so `btc-usdt`, `BTCUSDT` and `btc` all work. */
export function compactSymbol(value: string): string {
  return value.toUpperCase().replace(SEPARATORS, '');
}

/** A non-negative integer in decimal digits, or null (repeated parameters arrive as arrays). */
function wholeNumber(value: unknown): number | null {
  if (typeof value !== 'string' || !DIGITS.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

function pairFilter(value: unknown, message: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length > FUNDING_SYMBOL_MAX) throw AppError.invalid(message);
  return compactSymbol(value) || null;
}

function sortOf(value: unknown): FundingSortKey {
  if (value === undefined) return 'apr';
  const key = FUNDING_SORT_KEYS.find((k) => k === value);
  if (!key) throw AppError.invalid(FUNDING_400.sort);
  return key;
}

/** Checks the parameters in the documented order of their texts (exchange, symbol, ticker, sort, limit, offset) and throws the first failure. */
export function parseFundingQuery(raw: RawFundingQuery, configured: readonly ExchangeName[]): FundingQuery {
  let exchange: ExchangeName | null = null;
  if (raw.exchange !== undefined) {
    exchange = parseConfiguredExchange(raw.exchange, configured);
    if (!exchange) throw AppError.invalid(FUNDING_400.exchange(configured));
  }
  const symbol = pairFilter(raw.symbol, FUNDING_400.symbol);
  const ticker = pairFilter(raw.ticker, FUNDING_400.ticker);
  const sort = sortOf(raw.sort);
  const limit = raw.limit === undefined ? FUNDING_LIMIT_DEFAULT : wholeNumber(raw.limit);
  if (limit === null || limit < 1 || limit > FUNDING_LIMIT_MAX) throw AppError.invalid(FUNDING_400.limit);
  const offset = raw.offset === undefined ? 0 : wholeNumber(raw.offset);
  if (offset === null) throw AppError.invalid(FUNDING_400.offset);
  return { exchange, symbol, ticker, sort, limit, offset };
}
