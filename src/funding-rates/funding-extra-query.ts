import { AppError } from '../common/errors/app-error.js';
import { parseConfiguredExchange, type ExchangeName } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import { APR_WINDOWS_DAYS, type AprWindowDays } from './funding-history.engine.js';
import { FUNDING_400, FUNDING_LIMIT_DEFAULT, FUNDING_LIMIT_MAX } from './funding-query.js';

/** Parameters and 400 texts of GET /v1/funding-rates/history and GET /v1/funding-rates/spreads. */
export const HISTORY_DAYS_MAX = 90;
export const HISTORY_DAYS_DEFAULT = 7;
export const SPREAD_DAYS_DEFAULT: AprWindowDays = 7;
/** A spread of a million percent a year is beyond any real market: the cap keeps the figure finite. */
export const MIN_APR_SPREAD_MAX = 1_000_000;

export const HISTORY_400 = {
  tickerRequired: 'ticker is required',
  ticker: 'ticker is invalid',
  exchange: FUNDING_400.exchange,
  days: `days must be an integer from 1 to ${HISTORY_DAYS_MAX}`,
} as const;

export const SPREADS_400 = {
  minAprSpread: `minAprSpread must be a number from 0 to ${MIN_APR_SPREAD_MAX}`,
  days: `days must be one of ${APR_WINDOWS_DAYS.join(', ')}`,
  limit: FUNDING_400.limit,
  offset: FUNDING_400.offset,
} as const;

export interface HistoryQuery {
  ticker: string;
  exchange: ExchangeName | null;
  days: number;
}

export interface SpreadsQuery {
  minAprSpread: number;
  days: AprWindowDays;
  limit: number;
  offset: number;
}

const DIGITS = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

function whole(value: unknown): number | null {
  if (typeof value !== 'string' || !DIGITS.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

export function parseHistoryQuery(raw: Partial<Record<'ticker' | 'exchange' | 'days', unknown>>, configured: readonly ExchangeName[]): HistoryQuery {
  if (raw.ticker === undefined || raw.ticker === '') throw AppError.invalid(HISTORY_400.tickerRequired);
  const ticker = typeof raw.ticker === 'string' && raw.ticker.length <= 100 ? toCanonicalTicker(raw.ticker) : null;
  if (!ticker) throw AppError.invalid(HISTORY_400.ticker);
  let exchange: ExchangeName | null = null;
  if (raw.exchange !== undefined) {
    exchange = parseConfiguredExchange(raw.exchange, configured);
    if (!exchange) throw AppError.invalid(HISTORY_400.exchange(configured));
  }
  const days = raw.days === undefined ? HISTORY_DAYS_DEFAULT : whole(raw.days);
  if (days === null || days < 1 || days > HISTORY_DAYS_MAX) throw AppError.invalid(HISTORY_400.days);
  return { ticker, exchange, days };
}

export function parseSpreadsQuery(raw: Partial<Record<'minAprSpread' | 'days' | 'limit' | 'offset', unknown>>): SpreadsQuery {
  const min = raw.minAprSpread === undefined ? 0 : typeof raw.minAprSpread === 'string' && DECIMAL.test(raw.minAprSpread.trim()) ? Number(raw.minAprSpread) : NaN;
  if (!(min >= 0 && min <= MIN_APR_SPREAD_MAX)) throw AppError.invalid(SPREADS_400.minAprSpread);
  const dayValue = raw.days === undefined ? SPREAD_DAYS_DEFAULT : whole(raw.days);
  const days = APR_WINDOWS_DAYS.find((d) => d === dayValue);
  if (days === undefined) throw AppError.invalid(SPREADS_400.days);
  const limit = raw.limit === undefined ? FUNDING_LIMIT_DEFAULT : whole(raw.limit);
  if (limit === null || limit < 1 || limit > FUNDING_LIMIT_MAX) throw AppError.invalid(SPREADS_400.limit);
  const offset = raw.offset === undefined ? 0 : whole(raw.offset);
  if (offset === null) throw AppError.invalid(SPREADS_400.offset);
  return { minAprSpread: min, days, limit, offset };
}
