import { DateTime } from 'luxon';
import { AppError, INVALID_REQUEST_BODY } from '../common/errors/app-error.js';
import { saoPauloDayOf } from '../common/time/sao-paulo.js';
import { type ExchangeName, oneOfExchanges, parseConfiguredExchange } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import type { CrossingCountFilter } from './crossing-count.repository.js';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const exchangeMessage = (configured: readonly string[]): string => oneOfExchanges('exchange', configured);
export const RANGE_MESSAGE = 'to must be on or after from';
export const dateMessage = (field: string): string => `${field} must be a valid YYYY-MM-DD date`;

/** `YYYY-MM-DD` that names a real calendar day (no 2026-02-30, no 2026-1-5); else null. */
export function calendarDayOf(value: unknown): string | null {
  if (typeof value !== 'string' || !CALENDAR_DAY.test(value)) return null;
  const day = DateTime.fromISO(value, { zone: 'UTC' });
  return day.isValid && day.toISODate() === value ? value : null;
}

/**
 * The POST body (rules: errors, funding): absent, empty or `{}` / `{ date: null }` → today in São Paulo;
 * valid JSON that is not an object → `Invalid request body`; a `date` that is not a real
 * `YYYY-MM-DD` day → its 400. Other members are ignored, as the other POST routes do.
 */
export function parseProcessingDate(body: unknown, now: number): string {
  if (body === undefined) return saoPauloDayOf(now);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalid(INVALID_REQUEST_BODY);
  const date: unknown = (body as Record<string, unknown>).date;
  if (date === undefined || date === null) return saoPauloDayOf(now);
  const day = calendarDayOf(date);
  if (day === null) throw AppError.invalid(dateMessage('date'));
  return day;
}

export type RawCrossingQuery = Partial<Record<'from' | 'to' | 'ticker' | 'exchange', unknown>>;

/** The read endpoint's query (rules: funding), checked in the order from, to, range, ticker, exchange. */
export function parseCrossingQuery(raw: RawCrossingQuery, now: number, configured: readonly ExchangeName[]): CrossingCountFilter {
  const from = present(raw.from) ? calendarDayOf(raw.from) : saoPauloDayOf(now);
  if (from === null) throw AppError.invalid(dateMessage('from'));
  const to = present(raw.to) ? calendarDayOf(raw.to) : saoPauloDayOf(now);
  if (to === null) throw AppError.invalid(dateMessage('to'));
  if (to < from) throw AppError.invalid(RANGE_MESSAGE);
  const filter: CrossingCountFilter = { from, to };
  if (present(raw.ticker)) {
    const ticker = typeof raw.ticker === 'string' ? toCanonicalTicker(raw.ticker) : null;
    if (ticker === null) throw AppError.invalid('ticker is invalid');
    filter.ticker = ticker;
  }
  if (present(raw.exchange)) {
    const exchange = parseConfiguredExchange(raw.exchange, configured);
    if (exchange === null) throw AppError.invalid(exchangeMessage(configured));
    filter.exchange = exchange;
  }
  return filter;
}

/** An empty query value (`?ticker=`) counts as absent, as a form that leaves a field blank sends. */
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';
