import { exchangeOf, fail, isObject, marketOf, tickerOf, type Validated } from './control-validation.js';
import { formatPlain, roundToStep } from './instruments.js';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { Level } from './depth-book.js';
import type { BookUpdate } from './market-state.js';

/** Levels one side of a book set through the control API may hold (the deepest public channel a venue serves). */
export const BOOK_LEVELS_MAX = 400;
/** Books one `PUT /_sim/books` may set. */
export const BOOKS_PER_REQUEST_MAX = 100;

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

function level(value: unknown, at: string, tick: number): Validated<Level> {
  if (!Array.isArray(value) || value.length !== 2) return fail(`${at} must be a [price, qty] pair`);
  const [price, qty] = value as unknown[];
  if (!positive(price)) return fail(`${at} price must be a positive number`);
  if (!positive(qty)) return fail(`${at} qty must be a positive number`);
  if (roundToStep(price, tick) !== price) return fail(`${at} price ${price} is not a multiple of the tick ${formatPlain(tick)}`);
  return { ok: true, value: [price, qty] };
}

function bookSide(value: unknown, at: string, tick: number, descending: boolean): Validated<Level[]> {
  if (value === undefined || value === null) return fail(`${at} is required`);
  if (!Array.isArray(value)) return fail(`${at} must be an array of [price, qty] pairs`);
  if (value.length === 0) return fail(`${at} must hold at least one level`);
  if (value.length > BOOK_LEVELS_MAX) return fail(`${at} must hold at most ${BOOK_LEVELS_MAX} levels`);
  const levels: Level[] = [];
  for (const [index, item] of value.entries()) {
    const checked = level(item, `${at}[${index}]`, tick);
    if (!checked.ok) return checked;
    const previous = levels[index - 1];
    if (previous && (descending ? checked.value[0] >= previous[0] : checked.value[0] <= previous[0])) {
      return fail(`${at} must be in ${descending ? 'descending' : 'ascending'} price order (${at}[${index}])`);
    }
    levels.push(checked.value);
  }
  return { ok: true, value: levels };
}

function bookUpdate(item: unknown, at: string, ticks: ReadonlyMap<string, number>): Validated<BookUpdate> {
  if (!isObject(item)) return fail(`${at} must be an object`);
  const exchange = exchangeOf(item.exchange, `${at}.exchange`, true);
  if (!exchange.ok) return exchange;
  const market = marketOf(item.market, `${at}.market`, true);
  if (!market.ok) return market;
  const ticker = tickerOf(item.ticker, `${at}.ticker`, new Set(ticks.keys()), true);
  if (!ticker.ok) return ticker;
  const tick = ticker.value === undefined ? undefined : ticks.get(ticker.value);
  if (!exchange.value || !market.value || !ticker.value || tick === undefined) return fail(`${at} is invalid`);
  const bids = bookSide(item.bids, `${at}.bids`, tick, true);
  if (!bids.ok) return bids;
  const asks = bookSide(item.asks, `${at}.asks`, tick, false);
  if (!asks.ok) return asks;
  const bestBid = bids.value[0]?.[0] ?? 0;
  const bestAsk = asks.value[0]?.[0] ?? 0;
  if (bestBid >= bestAsk) return fail(`${at} is crossed: best bid ${bestBid} must be below best ask ${bestAsk}`);
  return { ok: true, value: { exchange: exchange.value, market: market.value, ticker: ticker.value, bids: bids.value, asks: asks.value } };
}

/** `GET /_sim/books?exchange=&market=&ticker=`: all three are required. */
export function validateBookQuery(query: URLSearchParams, known: ReadonlySet<string>): Validated<{ exchange: ExchangeName; market: Market; ticker: string }> {
  const exchange = exchangeOf(query.get('exchange'), 'exchange', true);
  if (!exchange.ok) return exchange;
  const market = marketOf(query.get('market'), 'market', true);
  if (!market.ok) return market;
  const ticker = tickerOf(query.get('ticker'), 'ticker', known, true);
  if (!ticker.ok) return ticker;
  if (!exchange.value || !market.value || !ticker.value) return fail('Invalid request');
  return { ok: true, value: { exchange: exchange.value, market: market.value, ticker: ticker.value } };
}

/**
 * `PUT /_sim/books`: a non-empty array of books, each with both sides (bids descending, asks
 * ascending, positive prices on the market's tick and positive quantities, not crossed); the
 * first invalid item is reported by its index. `ticks` maps each simulated ticker to its tick.
 */
export function validateBooks(body: unknown, ticks: ReadonlyMap<string, number>): Validated<BookUpdate[]> {
  if (!Array.isArray(body)) return fail('body must be an array of books');
  if (body.length === 0) return fail('body must contain at least one book');
  if (body.length > BOOKS_PER_REQUEST_MAX) return fail(`body must contain at most ${BOOKS_PER_REQUEST_MAX} books`);
  const updates: BookUpdate[] = [];
  for (const [index, item] of body.entries()) {
    const checked = bookUpdate(item, `[${index}]`, ticks);
    if (!checked.ok) return checked;
    updates.push(checked.value);
  }
  return { ok: true, value: updates };
}
