/*
 * How each venue's books are watched and how fast their subscriptions may change: the venue's
 * folder states it (`depth` of src/venues/<name>; docs/venues.md "Order-book depth"). `limit`
 * is what ccxt 4.5.84's `watchOrderBook` is called with, which selects the channel. A request is
 * one subscribe or unsubscribe message with up to `perSubscribe` / `perUnsubscribe` symbols;
 * `perSecond` keeps every depth connection under the venue's client messages per second with
 * room for pings; `perHour` is the venue's subscribe requests per hour per connection,
 * unsubscribes included. Depth runs on one connection per exchange and market type (where ccxt
 * opens a socket per subscription, at most `socketsPerType`), apart from the quote feeds.
 */

/** Windows are stretched by a quarter so a request sent late still counts in a later window. */
export const DEPTH_WINDOW_MARGIN = 1.25;
