import type { ExchangeName } from '../../market-model/exchanges.js';

/**
 * How each venue's books are watched and how fast their subscriptions may change
 * (docs/venues.md, "Order-book depth"). `limit` is what ccxt 4.5.84's `watchOrderBook` is
 * called with, which selects the channel: binance `<id>@depth@100ms` (ccxt has no option for
 * the partial `@depth20` stream; it seeds the diff stream with a REST snapshot), bybit
 * `orderbook.50`, okx `books` (`books5` holds only 5 levels), gate `spot.obu` /
 * `futures.order_book_update`, bitget `books15` (snapshots, 15 levels: the deepest snapshot
 * channel bitget has).
 *
 * A request is one subscribe or unsubscribe message with up to `perSubscribe` / `perUnsubscribe`
 * symbols (binance and gate: ccxt ties a subscription to its exact symbol list, so one symbol per
 * request keeps each unsubscribable on its own). `perSecond` keeps every depth connection under
 * the venue's client messages per second with room for pings (binance spot 5, bitget 10);
 * `perHour` is the venue's subscribe requests per hour per connection (okx 480, bitget 240),
 * unsubscribes included. Depth runs on one connection per exchange and market type (binance:
 * at most `binanceStreams` sockets), apart from the quote feeds.
 */
export interface DepthVenueRule {
  limit: number;
  perSubscribe: number;
  perUnsubscribe: number;
  perSecond: number;
  perHour: number | null;
}

export const DEPTH_RULES: Record<ExchangeName, DepthVenueRule> = {
  binance: { limit: 20, perSubscribe: 1, perUnsubscribe: 1, perSecond: 2, perHour: null },
  bybit: { limit: 50, perSubscribe: 10, perUnsubscribe: 10, perSecond: 4, perHour: null },
  okx: { limit: 20, perSubscribe: 20, perUnsubscribe: 20, perSecond: 2, perHour: 480 },
  gate: { limit: 20, perSubscribe: 1, perUnsubscribe: 1, perSecond: 4, perHour: null },
  bitget: { limit: 15, perSubscribe: 20, perUnsubscribe: 1, perSecond: 2, perHour: 240 },
};

/** binance gives each distinct subscription its own stream number; this many sockets per market type at most. */
export const BINANCE_DEPTH_STREAMS = 8;

/** Windows are stretched by a quarter so a request sent late still counts in a later window. */
export const DEPTH_WINDOW_MARGIN = 1.25;
