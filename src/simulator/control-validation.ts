import { EXCHANGE_NAMES, parseExchangeName, type ExchangeName, type Market } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import type { MarketFilter, QuoteUpdate } from './market-state.js';

/** Pure validation of control-API bodies; messages follow the `errors` rule. */
export type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

type Json = Record<string, unknown>;

export const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const EXCHANGE_LIST = EXCHANGE_NAMES.join(', ');

export function exchangeOf(value: unknown, field: string, required: boolean): Validated<ExchangeName | undefined> {
  if (value === undefined || value === null) {
    return required ? fail(`${field} is required`) : { ok: true, value: undefined };
  }
  const name = typeof value === 'string' ? parseExchangeName(value) : null;
  return name ? { ok: true, value: name } : fail(`${field} must be one of ${EXCHANGE_LIST}`);
}

export function marketOf(value: unknown, field: string, required: boolean): Validated<Market | undefined> {
  if (value === undefined || value === null) {
    return required ? fail(`${field} is required`) : { ok: true, value: undefined };
  }
  const upper = typeof value === 'string' ? value.toUpperCase() : '';
  return upper === 'SPOT' || upper === 'FUTURES' ? { ok: true, value: upper } : fail(`${field} must be SPOT or FUTURES`);
}

export function tickerOf(value: unknown, field: string, known: ReadonlySet<string>, required: boolean): Validated<string | undefined> {
  if (value === undefined || value === null) {
    return required ? fail(`${field} is required`) : { ok: true, value: undefined };
  }
  const ticker = typeof value === 'string' ? toCanonicalTicker(value) : null;
  if (!ticker) return fail(`${field} is invalid`);
  return known.has(ticker) ? { ok: true, value: ticker } : fail(`${field} ${ticker} is not simulated`);
}

function positive(value: unknown, field: string, required: boolean): Validated<number | undefined> {
  if (value === undefined || value === null) {
    return required ? fail(`${field} is required`) : { ok: true, value: undefined };
  }
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? { ok: true, value }
    : fail(`${field} must be a positive number`);
}

function bool(value: unknown, field: string): Validated<boolean> {
  if (value === undefined || value === null) return fail(`${field} is required`);
  return typeof value === 'boolean' ? { ok: true, value } : fail(`${field} must be a boolean`);
}

function quoteUpdate(item: unknown, at: string, known: ReadonlySet<string>): Validated<QuoteUpdate> {
  if (!isObject(item)) return fail(`${at} must be an object`);
  const exchange = exchangeOf(item.exchange, `${at}.exchange`, true);
  if (!exchange.ok) return exchange;
  const market = marketOf(item.market, `${at}.market`, true);
  if (!market.ok) return market;
  const ticker = tickerOf(item.ticker, `${at}.ticker`, known, true);
  if (!ticker.ok) return ticker;
  const numbers: Partial<Record<'bid' | 'ask' | 'bidQty' | 'askQty' | 'volume', number>> = {};
  for (const field of ['bid', 'ask', 'bidQty', 'askQty', 'volume'] as const) {
    const checked = positive(item[field], `${at}.${field}`, field === 'bid' || field === 'ask');
    if (!checked.ok) return checked;
    if (checked.value !== undefined) numbers[field] = checked.value;
  }
  const { bid, ask } = numbers;
  if (bid === undefined || ask === undefined || !exchange.value || !market.value || !ticker.value) {
    return fail(`${at} is invalid`);
  }
  if (ask < bid) return fail(`${at}.ask must be greater than or equal to bid`);
  return { ok: true, value: { ...numbers, exchange: exchange.value, market: market.value, ticker: ticker.value, bid, ask } };
}

/** `PUT /_sim/quotes`: a non-empty array; the first invalid item is reported by its index. */
export function validateQuotes(body: unknown, known: ReadonlySet<string>): Validated<QuoteUpdate[]> {
  if (!Array.isArray(body)) return fail('body must be an array of quotes');
  if (body.length === 0) return fail('body must contain at least one quote');
  const updates: QuoteUpdate[] = [];
  for (const [index, item] of body.entries()) {
    const checked = quoteUpdate(item, `[${index}]`, known);
    if (!checked.ok) return checked;
    updates.push(checked.value);
  }
  return { ok: true, value: updates };
}

export function validatePause(body: unknown, known: ReadonlySet<string>): Validated<{ filter: MarketFilter; paused: boolean }> {
  if (!isObject(body)) return fail('Invalid request body');
  const exchange = exchangeOf(body.exchange, 'exchange', false);
  if (!exchange.ok) return exchange;
  const market = marketOf(body.market, 'market', false);
  if (!market.ok) return market;
  const ticker = tickerOf(body.ticker, 'ticker', known, false);
  if (!ticker.ok) return ticker;
  const paused = bool(body.paused, 'paused');
  if (!paused.ok) return paused;
  const filter: MarketFilter = {};
  if (exchange.value) filter.exchange = exchange.value;
  if (market.value) filter.market = market.value;
  if (ticker.value) filter.ticker = ticker.value;
  return { ok: true, value: { filter, paused: paused.value } };
}

/** `POST /_sim/drop`: the body is optional. */
export function validateDrop(body: unknown): Validated<{ exchange?: ExchangeName }> {
  if (body === undefined) return { ok: true, value: {} };
  if (!isObject(body)) return fail('Invalid request body');
  const exchange = exchangeOf(body.exchange, 'exchange', false);
  if (!exchange.ok) return exchange;
  return { ok: true, value: exchange.value ? { exchange: exchange.value } : {} };
}

/** `POST /_sim/silence {exchange?, silent}` and `POST /_sim/stall {exchange?, stalled}`. */
export function validateFault(body: unknown, flag: 'silent' | 'stalled' | 'down'): Validated<{ exchange?: ExchangeName; value: boolean }> {
  if (!isObject(body)) return fail('Invalid request body');
  const exchange = exchangeOf(body.exchange, 'exchange', false);
  if (!exchange.ok) return exchange;
  const value = bool(body[flag], flag);
  if (!value.ok) return value;
  return { ok: true, value: exchange.value ? { exchange: exchange.value, value: value.value } : { value: value.value } };
}

export const WALK_INTERVAL_MIN_MS = 50;
export const WALK_INTERVAL_MAX_MS = 60_000;

/**
 * `POST /_sim/walk {enabled, intervalMs?, hold?}`: `hold` lists the tickers the walk leaves alone
 * (every exchange and market of each), so quotes put through the control API stay as set; an
 * empty list releases them, and leaving it out keeps the current list.
 */
export function validateWalk(body: unknown, known: ReadonlySet<string>): Validated<{ enabled: boolean; intervalMs?: number; hold?: string[] }> {
  if (!isObject(body)) return fail('Invalid request body');
  const enabled = bool(body.enabled, 'enabled');
  if (!enabled.ok) return enabled;
  const value: { enabled: boolean; intervalMs?: number; hold?: string[] } = { enabled: enabled.value };
  const interval = body.intervalMs;
  if (interval !== undefined && interval !== null) {
    if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < WALK_INTERVAL_MIN_MS || interval > WALK_INTERVAL_MAX_MS) {
      return fail(`intervalMs must be an integer from ${WALK_INTERVAL_MIN_MS} to ${WALK_INTERVAL_MAX_MS}`);
    }
    value.intervalMs = interval;
  }
  if (body.hold !== undefined && body.hold !== null) {
    if (!Array.isArray(body.hold)) return fail('hold must be an array of tickers');
    const hold: string[] = [];
    for (const [i, item] of body.hold.entries()) {
      const ticker = tickerOf(item, `hold[${i}]`, known, true);
      if (!ticker.ok) return ticker;
      // Required, so a valid entry always has its ticker.
      if (ticker.value !== undefined) hold.push(ticker.value);
    }
    value.hold = hold;
  }
  return { ok: true, value };
}

export const LOAD_RATE_MAX = 200_000;

/** `POST /_sim/load {rate, burstShare?}`: rate 0 stops load mode. */
export function validateLoad(body: unknown): Validated<{ rate: number; burstShare?: number }> {
  if (!isObject(body)) return fail('Invalid request body');
  const { rate, burstShare } = body;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 0 || rate > LOAD_RATE_MAX) {
    return fail(`rate must be an integer from 0 to ${LOAD_RATE_MAX}`);
  }
  if (burstShare === undefined || burstShare === null) return { ok: true, value: { rate } };
  if (typeof burstShare !== 'number' || !(burstShare >= 0.1 && burstShare <= 1)) return fail('burstShare must be a number from 0.1 to 1');
  return { ok: true, value: { rate, burstShare } };
}
