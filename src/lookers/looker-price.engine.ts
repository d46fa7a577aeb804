import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { QuoteTick } from '../market-data/market-data-source.js';
import { toCanonicalTicker } from '../market-model/ticker.js';

/** The `lookers` rule looker price event. */
export interface LookerPriceEvent {
  ticker: string;
  exchange: ExchangeName;
  market: Market;
  ask: number | null;
  bid: number | null;
  volume: number | null;
  stale: boolean;
  updatedAt: string | null;
}

/** What a looker stream watches: its cryptos (canonical `BASE-QUOTE`) on one exchange and market. */
export interface LookerWatch {
  readonly exchange: ExchangeName;
  readonly market: Market;
  readonly tickers: readonly string[];
}

/** The part of the quote book the stream reads; QuoteBook satisfies it. */
export interface QuoteReader {
  get(exchange: ExchangeName, market: Market, ticker: string): QuoteTick | undefined;
  volume(exchange: ExchangeName, market: Market, ticker: string): number | null;
  isStale(quote: QuoteTick | undefined, now: number): boolean;
}

export function toLookerWatch(looker: { exchange: ExchangeName; market: Market; cryptos: readonly string[] }): LookerWatch {
  return {
    exchange: looker.exchange,
    market: looker.market,
    // Stored cryptos were validated (rules: tickers), so the canonical form always exists.
    tickers: looker.cryptos.map((crypto) => toCanonicalTicker(crypto) ?? crypto),
  };
}

/**
 * One crypto's event at `now`. `hasFeed` is false when the exchange has no realtime feed
 * (ENABLED_WEBSOCKET off, or the exchange is not configured): then every event is stale (rules: staleness).
 * A crypto never seen has null prices, volume and time, and is stale (rules: lookers).
 */
export function lookerPriceEvent(
  book: QuoteReader,
  exchange: ExchangeName,
  market: Market,
  ticker: string,
  context: { now: number; hasFeed: boolean },
): LookerPriceEvent {
  const quote = book.get(exchange, market, ticker);
  if (!quote) {
    return { ticker, exchange, market, ask: null, bid: null, volume: null, stale: true, updatedAt: null };
  }
  return {
    ticker,
    exchange,
    market,
    ask: quote.ask,
    bid: quote.bid,
    volume: book.volume(exchange, market, ticker),
    stale: !context.hasFeed || book.isStale(quote, context.now),
    updatedAt: new Date(quote.receivedAt).toISOString(),
  };
}
