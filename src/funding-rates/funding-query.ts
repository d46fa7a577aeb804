import { AppError } from '../common/errors/app-error.js';
import { EXCHANGE_NAMES, parseExchangeName, type ExchangeName } from '../market-data/exchanges.js';

/** SPEC 4.6 / 8 limits and the D2 texts of GET /v1/funding-rates. */
export const FUNDING_LIMIT_DEFAULT = 100;
export const FUNDING_LIMIT_MAX = 500;
export const FUNDING_SYMBOL_MAX = 100;

export const FUNDING_400 = {
  exchange: `exchange must be one of ${EXCHANGE_NAMES.join(', ')}`,
  symbol: `symbol must be at most ${FUNDING_SYMBOL_MAX} characters`,
  limit: `limit must be an integer from 1 to ${FUNDING_LIMIT_MAX}`,
  offset: 'offset must be an integer of 0 or more',
} as const;

export interface FundingQuery {
  exchange: ExchangeName | null;
  /** Upper case without separators, matched against `BASEQUOTE`; null matches everything. */
  symbol: string | null;
  limit: number;
  offset: number;
}

export type RawFundingQuery = Partial<Record<'exchange' | 'symbol' | 'limit' | 'offset', unknown>>;

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

/** Checks the parameters in the order D2 lists their texts and throws the first failure. */
export function parseFundingQuery(raw: RawFundingQuery): FundingQuery {
  let exchange: ExchangeName | null = null;
  if (raw.exchange !== undefined) {
    exchange = typeof raw.exchange === 'string' ? parseExchangeName(raw.exchange) : null;
    if (!exchange) throw AppError.invalid(FUNDING_400.exchange);
  }
  let symbol: string | null = null;
  if (raw.symbol !== undefined) {
    if (typeof raw.symbol !== 'string' || raw.symbol.length > FUNDING_SYMBOL_MAX) throw AppError.invalid(FUNDING_400.symbol);
    symbol = compactSymbol(raw.symbol) || null;
  }
  const limit = raw.limit === undefined ? FUNDING_LIMIT_DEFAULT : wholeNumber(raw.limit);
  if (limit === null || limit < 1 || limit > FUNDING_LIMIT_MAX) throw AppError.invalid(FUNDING_400.limit);
  const offset = raw.offset === undefined ? 0 : wholeNumber(raw.offset);
  if (offset === null) throw AppError.invalid(FUNDING_400.offset);
  return { exchange, symbol, limit, offset };
}
