import type { IncomingHttpHeaders } from 'node:http';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { BookDelta, BookView } from '../depth-book.js';
import type { MarketState, SimQuote } from '../market-state.js';
import { assetOfBase, type VenueLots } from './lots.js';

/** A REST call as it reaches the simulator: `/<original-host>/<original-path>?query`. */
export interface RestRequest {
  method: string;
  host: string;
  /** The original path, e.g. `/api/v3/exchangeInfo`. */
  path: string;
  query: URLSearchParams;
  /** Request headers, names in lower case as Node delivers them. */
  headers: IncomingHttpHeaders;
  /** The JSON body of a POST (a venue whose public calls are POSTs), else undefined. */
  body?: unknown;
}

export interface RestReply {
  status: number;
  body: unknown;
}

/** One subscription of a websocket connection: bid/ask, or a depth channel when `depth` is set. */
export interface Subscription {
  market: Market;
  ticker: string;
  /** The depth channel as the venue names it (`depth@100ms`, `books`, `orderbook.50`). */
  depth?: string;
}

/** What a depth push carries: the book, and the changes since the previous push (none: the snapshot sent on subscribe). */
export interface DepthFrame {
  quote: SimQuote;
  book: BookView;
  delta?: BookDelta;
}

/** What an exchange protocol may do with the websocket connection it is serving. */
export interface WsSession {
  readonly host: string;
  readonly path: string;
  /** Sends a reply (ack, pong, error); JSON-encodes anything but a string. */
  reply(payload: unknown): void;
  subscribe(sub: Subscription): void;
  unsubscribe(sub: Subscription): void;
  /** Sends the current quote of a just-subscribed market, as exchanges send a snapshot first. */
  pushNow(sub: Subscription): void;
}

export interface ExchangeProtocol {
  readonly name: ExchangeName;
  /** True when this exchange owns the original host name, port removed (`api.example.com`). */
  ownsHost(host: string): boolean;
  /** Answers a REST call, or undefined when the path is not simulated (→ 404). */
  rest(req: RestRequest, state: MarketState): RestReply | undefined;
  /** Handles one text frame from the client: subscribe, unsubscribe, application ping. */
  onMessage(session: WsSession, text: string, state: MarketState): void;
  /** The push message carrying a quote on this exchange's bid/ask channel. */
  render(quote: SimQuote, state: MarketState): string;
  /**
   * The push message of a depth subscription: a snapshot on subscribe (undefined where the venue
   * sends none and clients read the REST snapshot), then one frame per book change.
   */
  renderDepth(sub: Subscription, frame: DepthFrame, state: MarketState): string | undefined;
}

/** Parses a JSON frame; undefined when it is not a JSON object. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The API key a signed call carries in `name`, or undefined when the header is missing or blank.
 * The simulator accepts any key and any signature: only a missing key is refused, in the
 * exchange's own error format, so a client that does not sign is caught.
 */
export function apiKeyOf(req: RestRequest, name: string): string | undefined {
  const raw = req.headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

export function ok(body: unknown): RestReply {
  return { status: 200, body };
}

/** Canonical ticker from an exchange market id such as `BTCUSDT`, `btcusdt` or `BTC_USDT`. */
export function tickerFromId(id: string, state: MarketState, lots: VenueLots): string | undefined {
  const compact = id.toUpperCase().replace(/[-_]/g, '');
  if (!compact.endsWith('USDT')) return undefined;
  // The venue's lot names (`1000PEPEUSDT`) stand for the asset the simulator prices per unit.
  const ticker = `${assetOfBase(lots, compact.slice(0, -4))}-USDT`;
  return state.instrument(ticker) ? ticker : undefined;
}

/** As tickerFromId, but only for a market the exchange still lists (a delisted one is unknown). */
export function listedTickerFromId(
  id: string, state: MarketState, exchange: ExchangeName, market: Market, lots: VenueLots,
): string | undefined {
  const ticker = tickerFromId(id, state, lots);
  return ticker !== undefined && state.isListed(exchange, market, ticker) ? ticker : undefined;
}

export function baseOf(ticker: string): string {
  return ticker.slice(0, ticker.indexOf('-'));
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function objectList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];
}
