import type { Observable } from 'rxjs';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';

/** One price level: price, quantity in base units. Bids best (highest) first, asks best (lowest) first. */
export type BookLevel = readonly [price: number, qty: number];

/**
 * A side's levels as the serving thread holds them: price, quantity, price, quantity… best first,
 * in one array of numbers. V8 keeps them unboxed, 16 bytes a level, where a tuple per level costs
 * about 70; the replay ring keeps the books of its 10,000 events (docs/rules.md, `depth-walk`).
 */
export type FlatLevels = readonly number[];

/** An exchange's order book of one market, as the ingest worker last saw it. */
export interface DepthBook {
  readonly exchange: ExchangeName;
  readonly market: Market;
  readonly ticker: string;
  readonly bids: FlatLevels;
  readonly asks: FlatLevels;
  /** Local time the worker saw this state, Unix ms. */
  readonly receivedAt: number;
}

/** Levels kept per side: enough to price any notional a route's best levels cannot fill alone. */
export const DEPTH_LEVELS = 20;

/** A book not updated for longer than this is unknown: its venue may have moved without us. */
export const BOOK_UNKNOWN_AFTER_MS = 5000;

/**
 * The depth side of a market-data source: the serving thread names the books an exchange should
 * hold, the workers subscribe and unsubscribe to match, and every update comes back on `books`.
 */
export interface DepthSource {
  readonly books: Observable<DepthBook>;
  /** The books `exchange` should hold in `market`: replaces the set given before (empty: none). */
  holdBooks(exchange: ExchangeName, market: Market, tickers: readonly string[]): void;
}

export function isDepthSource(source: object): source is DepthSource {
  return 'holdBooks' in source && 'books' in source;
}
