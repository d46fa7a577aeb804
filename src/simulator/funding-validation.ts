import { EXCHANGE_NAMES, parseExchangeName } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import type { Validated } from './control-validation.js';
import type { FundingUpdate } from './funding-state.js';

type Json = Record<string, unknown>;

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_INTERVAL_HOURS = 168;

/** Absent → undefined (keep), null → null (the exchange sends none), else the checked value. */
function optional<T>(value: unknown, check: (v: unknown) => T | undefined): { ok: true; value: T | null | undefined } | { ok: false } {
  if (value === undefined) return { ok: true, value: undefined };
  if (value === null) return { ok: true, value: null };
  const checked = check(value);
  return checked === undefined ? { ok: false } : { ok: true, value: checked };
}

const intervalHours = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_INTERVAL_HOURS ? v : undefined;

/** Unix ms, or an RFC 3339 string. */
function timeOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v > 0 ? v : undefined;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

function fundingItem(item: unknown, at: string, known: ReadonlySet<string>): Validated<FundingUpdate> {
  if (!isObject(item)) return fail(`${at} must be an object`);
  if (item.exchange === undefined || item.exchange === null) return fail(`${at}.exchange is required`);
  const exchange = typeof item.exchange === 'string' ? parseExchangeName(item.exchange) : null;
  if (!exchange) return fail(`${at}.exchange must be one of ${EXCHANGE_NAMES.join(', ')}`);
  if (item.ticker === undefined || item.ticker === null) return fail(`${at}.ticker is required`);
  const ticker = typeof item.ticker === 'string' ? toCanonicalTicker(item.ticker) : null;
  if (!ticker) return fail(`${at}.ticker is invalid`);
  if (!known.has(ticker)) return fail(`${at}.ticker ${ticker} is not simulated`);
  if (item.fundingRate === undefined) return fail(`${at}.fundingRate is required`);
  const rate = item.fundingRate;
  if (rate !== null && (typeof rate !== 'number' || !Number.isFinite(rate) || Math.abs(rate) >= 1)) {
    return fail(`${at}.fundingRate must be a number between -1 and 1, or null`);
  }
  const hours = optional(item.intervalHours, intervalHours);
  if (!hours.ok) return fail(`${at}.intervalHours must be a number of hours from more than 0 to ${MAX_INTERVAL_HOURS}, or null`);
  const next = optional(item.nextFundingTime, timeOf);
  if (!next.ok) return fail(`${at}.nextFundingTime must be Unix milliseconds or an RFC 3339 time, or null`);
  const mark = optional(item.markPrice, positive);
  if (!mark.ok) return fail(`${at}.markPrice must be a positive number, or null`);
  const update: FundingUpdate = { exchange, ticker, fundingRate: rate };
  if (hours.value !== undefined) update.intervalHours = hours.value;
  if (next.value !== undefined) update.nextFundingTime = next.value;
  if (mark.value !== undefined) update.markPrice = mark.value;
  return { ok: true, value: update };
}

/**
 * `PUT /_sim/funding` (rules: operating): a non-empty array; the first invalid item is reported by its index.
 * Omitted optional members keep their current value; null means the exchange sends none.
 */
export function validateFunding(body: unknown, known: ReadonlySet<string>): Validated<FundingUpdate[]> {
  if (!Array.isArray(body)) return fail('body must be an array of funding rates');
  if (body.length === 0) return fail('body must contain at least one funding rate');
  const updates: FundingUpdate[] = [];
  for (const [index, item] of body.entries()) {
    const checked = fundingItem(item, `[${index}]`, known);
    if (!checked.ok) return checked;
    updates.push(checked.value);
  }
  return { ok: true, value: updates };
}
