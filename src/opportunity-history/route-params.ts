import { AppError } from '../common/errors/app-error.js';
import { CALENDAR_UNITS, type CalendarUnit } from '../common/time/sao-paulo.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import { SPREAD_BASES, type SpreadBasis } from './backtest.engine.js';

/** The validated parameters shared by stats and backtest (rules: backtest). */
export interface RouteParams {
  ticker: string;
  buy: string;
  sell: string;
  days: number;
  threshold: number;
  basis: SpreadBasis;
}

/** A route and a look-back, without a threshold (the lifetimes query). */
export type RouteLookBack = Pick<RouteParams, 'ticker' | 'buy' | 'sell' | 'days'>;

/** A route and a recent span in minutes (the samples query). */
export interface RouteRecent {
  ticker: string;
  buy: string;
  sell: string;
  minutes: number;
}

/** The longest span the samples query answers: a day. */
export const MAX_SAMPLE_MINUTES = 1440;

export interface BacktestRequest extends RouteParams {
  capital: number;
  transferMinutes: number;
  /** The calendar unit of the answer's breakdown (São Paulo calendar). */
  breakdown: CalendarUnit;
}

/** Raw members as they arrive: JSON values from a body, strings from a query. */
export type RawParams = Partial<Record<keyof BacktestRequest | 'minutes', unknown>>;
export type Source = 'query' | 'body';

export const DEFAULT_CAPITAL = 1000;
const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Checks every member in the `errors` rule's order (ticker, buy, sell, days, threshold, basis, capital,
 * transferMinutes) and throws the first failure. The exchange list is the configured one, which
 * is why this runs in the service rather than as static DTO decorators: the DTOs only report
 * missing members (`<field> is required`), which the `errors` rule puts before every other check.
 */
export function parseRouteParams(raw: RawParams, exchanges: readonly string[], source: Source): RouteParams {
  const route = parseRouteLookBack(raw, exchanges, source);
  const threshold = numberOf(raw.threshold, source);
  if (threshold === null || threshold < 0 || threshold > 100) {
    throw AppError.invalid('threshold must be a number from 0 to 100');
  }
  return { ...route, threshold, basis: basisOf(raw.basis) };
}

/** ticker, buy, sell, days by the `windows` rule rules, in that order. */
export function parseRouteLookBack(raw: RawParams, exchanges: readonly string[], source: Source): RouteLookBack {
  const { ticker, buy, sell } = parseRoute(raw, exchanges);
  const days = numberOf(raw.days, source);
  if (days === null || !Number.isInteger(days) || days < 1 || days > 90) {
    throw AppError.invalid('days must be an integer from 1 to 90');
  }
  return { ticker, buy, sell, days };
}

/** ticker, buy, sell as for the look-back, then `minutes`, an integer from 1 to 1440 (a query). */
export function parseRouteRecent(raw: RawParams, exchanges: readonly string[]): RouteRecent {
  const route = parseRoute(raw, exchanges);
  const minutes = numberOf(raw.minutes, 'query');
  if (minutes === null || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_SAMPLE_MINUTES) {
    throw AppError.invalid(`minutes must be an integer from 1 to ${MAX_SAMPLE_MINUTES}`);
  }
  return { ...route, minutes };
}

function parseRoute(raw: RawParams, exchanges: readonly string[]): Pick<RouteParams, 'ticker' | 'buy' | 'sell'> {
  const ticker = typeof raw.ticker === 'string' ? toCanonicalTicker(raw.ticker) : null;
  if (!ticker) throw AppError.invalid('ticker is invalid');
  const buy = exchangeOf(raw.buy, 'buy', exchanges);
  const sell = exchangeOf(raw.sell, 'sell', exchanges);
  if (buy === sell) throw AppError.invalid('buy and sell must differ');
  return { ticker, buy, sell };
}

export function parseBacktestRequest(raw: RawParams, exchanges: readonly string[]): BacktestRequest {
  const route = parseRouteParams(raw, exchanges, 'body');
  const capital = capitalOf(raw.capital);
  const transferMinutes = absent(raw.transferMinutes) ? 0 : numberOf(raw.transferMinutes, 'body');
  if (transferMinutes === null || !Number.isInteger(transferMinutes) || transferMinutes < 0 || transferMinutes > 1440) {
    throw AppError.invalid('transferMinutes must be an integer from 0 to 1440');
  }
  return { ...route, capital, transferMinutes, breakdown: calendarUnitOf(raw.breakdown) };
}

/** A backtest's capital in USD: 1000 when absent. */
export function capitalOf(value: unknown): number {
  const capital = absent(value) ? DEFAULT_CAPITAL : numberOf(value, 'body');
  if (capital === null || capital < 10 || capital > 10_000_000) {
    throw AppError.invalid('capital must be a number from 10 to 10000000');
  }
  return capital;
}

/** A report's breakdown unit: day when absent. */
export function calendarUnitOf(value: unknown): CalendarUnit {
  if (absent(value) || value === '') return 'day';
  const unit = CALENDAR_UNITS.find((u) => u === value);
  if (!unit) throw AppError.invalid('breakdown must be day, week or month');
  return unit;
}

export const absent = (value: unknown): boolean => value === undefined || value === null;

function exchangeOf(value: unknown, field: 'buy' | 'sell', exchanges: readonly string[]): string {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : null;
  if (name === null || !exchanges.includes(name)) {
    throw AppError.invalid(`${field} must be one of ${exchanges.join(', ')}`);
  }
  return name;
}

/** A body member must be a JSON number; a query member is its decimal text. */
export function numberOf(value: unknown, source: Source): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (source === 'query' && typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value.trim());
  return null;
}

export function basisOf(value: unknown): SpreadBasis {
  if (absent(value) || value === '') return 'net';
  const basis = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const known = SPREAD_BASES.find((b) => b === basis);
  if (!known) throw AppError.invalid('basis must be net or gross');
  return known;
}
