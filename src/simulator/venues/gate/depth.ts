import type { Market } from '../../../market-model/exchanges.js';
import { deltaWithin, type Level } from '../../depth-book.js';
import { toContracts, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import { levelFormat, rows, type LevelFormat } from '../depth-levels.js';
import { listedTickerFromId, ok, stringList, type DepthFrame, type RestReply, type RestRequest, type Subscription } from '../protocol.js';
import { NO_LOTS } from '../lots.js';

/**
 * Gate's depth channels. ccxt 4.5.84's watchOrderBook uses `spot.obu` (payload
 * `ob.<pair>.<50|400>`: a full snapshot, then updates) on spot and `futures.order_book_update`
 * (payload `[contract, "20ms"|"100ms", "20"|"50"|"100"]`, updates only, with the REST snapshot
 * /futures/usdt/order_book) on perpetuals. The snapshot channels `spot.order_book` and
 * `futures.order_book` (`[id, levels, interval]`) are served too.
 */
const idOf = (ticker: string): string => ticker.replace('-', '_');
const OBU_LEVELS = new Set(['50', '400']);
const SNAPSHOT_LEVELS = new Set(['1', '5', '10', '20', '50', '100']);
const UPDATE_LEVELS = new Set(['20', '50', '100']);

/** The subscription a depth subscribe asks for, or a reason it is refused. */
export function gateDepthSubscription(channel: string, payload: unknown, state: MarketState): Subscription | string {
  const market: Market = channel.startsWith('futures.') ? 'FUTURES' : 'SPOT';
  const [first = '', second = '', third = ''] = stringList(payload);
  let id = first;
  let depth: string;
  if (channel === 'spot.obu') {
    const [prefix, pair = '', levels = ''] = first.split('.');
    if (prefix !== 'ob' || !OBU_LEVELS.has(levels)) return `invalid argument ${first}`;
    id = pair;
    depth = `obu.${levels}`;
  } else if (channel === 'spot.order_book' || channel === 'futures.order_book') {
    if (!SNAPSHOT_LEVELS.has(second)) return `invalid level ${second}`;
    depth = `order_book.${second}`;
  } else if (channel === 'futures.order_book_update') {
    if (!UPDATE_LEVELS.has(third)) return `invalid level ${third}`;
    depth = `order_book_update.${third}`;
  } else {
    return `unknown channel ${channel}`;
  }
  const ticker = listedTickerFromId(id, state, 'gate', market, NO_LOTS);
  if (!ticker) return `unknown ${market === 'FUTURES' ? 'contract' : 'currency pair'} ${id}`;
  return { market, ticker, depth };
}

function formatOf(q: SimQuote, state: MarketState, quanto: (i: Instrument) => number): LevelFormat {
  return levelFormat(q, state, NO_LOTS, q.market === 'SPOT' ? undefined : (qty, i) => toContracts(qty, quanto(i)));
}

/** Futures levels are objects with the size in contracts as a number. */
const futuresRows = (levels: readonly Level[], format: LevelFormat, depth?: number): { p: string; s: number }[] =>
  rows(levels, format, depth).map(([p, s]) => ({ p, s: Number(s) }));

export function renderGateDepth(sub: Subscription, frame: DepthFrame, state: MarketState, quanto: (i: Instrument) => number): string | undefined {
  const { quote, book, delta } = frame;
  const format = formatOf(quote, state, quanto);
  const [kind = '', levelText = ''] = (sub.depth ?? '').split('.');
  const levels = Number(levelText);
  const now = Date.now();
  const envelope = { time: Math.floor(now / 1000), time_ms: now, event: 'update' };
  const id = idOf(quote.ticker);
  const changes = delta ? deltaWithin(delta, book, levels) : undefined;
  if (kind === 'obu') {
    const result = delta && changes
      ? { t: now, s: `ob.${id}.${levelText}`, U: delta.first, u: delta.last, b: rows(changes.bids, format), a: rows(changes.asks, format) }
      : { t: now, full: true, s: `ob.${id}.${levelText}`, u: book.id, b: rows(book.bids, format, levels), a: rows(book.asks, format, levels) };
    return JSON.stringify({ channel: 'spot.obu', result, ...envelope });
  }
  if (kind === 'order_book') {
    if (sub.market === 'SPOT') {
      const result = { t: now, lastUpdateId: book.id, s: id, l: levelText, bids: rows(book.bids, format, levels), asks: rows(book.asks, format, levels) };
      return JSON.stringify({ channel: 'spot.order_book', result, ...envelope });
    }
    const result = { t: now, id: book.id, contract: id, bids: futuresRows(book.bids, format, levels), asks: futuresRows(book.asks, format, levels) };
    return JSON.stringify({ channel: 'futures.order_book', ...envelope, event: 'all', result });
  }
  // order_book_update: updates only; clients take the snapshot from REST.
  if (!delta || !changes) return undefined;
  const result = { t: now, s: id, U: delta.first, u: delta.last, b: futuresRows(changes.bids, format), a: futuresRows(changes.asks, format) };
  return JSON.stringify({ channel: 'futures.order_book_update', result, ...envelope });
}

/** REST `/spot/order_book` and `/futures/usdt/order_book` (`with_id=true` adds the update id). */
export function gateOrderBook(req: RestRequest, state: MarketState, market: Market, quanto: (i: Instrument) => number): RestReply {
  const id = req.query.get(market === 'SPOT' ? 'currency_pair' : 'contract') ?? '';
  const ticker = listedTickerFromId(id, state, 'gate', market, NO_LOTS);
  const quote = ticker ? state.get('gate', market, ticker) : undefined;
  const book = quote ? state.book(quote) : undefined;
  if (!quote || !book) return { status: 400, body: { label: 'INVALID_PARAM_VALUE', message: `Invalid ${market === 'SPOT' ? 'currency_pair' : 'contract'} ${id}` } };
  const limit = Math.min(Number(req.query.get('limit') ?? 10) || 10, market === 'SPOT' ? 1000 : 300);
  const format = formatOf(quote, state, quanto);
  const now = Date.now();
  const withId = req.query.get('with_id') === 'true' ? { id: book.id } : {};
  if (market === 'SPOT') {
    return ok({ ...withId, current: now, update: now, bids: rows(book.bids, format, limit), asks: rows(book.asks, format, limit) });
  }
  return ok({ ...withId, current: now / 1000, update: now / 1000, bids: futuresRows(book.bids, format, limit), asks: futuresRows(book.asks, format, limit) });
}
