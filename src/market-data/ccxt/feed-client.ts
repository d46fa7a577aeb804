import type { Exchange } from 'ccxt';
import { compactOrderBooks } from './compact-books.js';

/**
 * The slice of a ccxt pro client a feed connection uses. Keeping it this small lets the watch
 * loop be tested with a fake, and keeps ccxt's loose typings out of the loop.
 */
export interface CcxtBidAsk {
  symbol?: string;
  bid?: number | null;
  ask?: number | null;
  bidVolume?: number | null;
  askVolume?: number | null;
  timestamp?: number | null;
}

export interface FeedClient {
  /** ccxt's bid/ask cache, symbol → latest parsed update; every exchange class assigns into it. */
  readonly bidsasks: Record<string, CcxtBidAsk | undefined>;
  /** Subscribes (dialling when needed); resolves with the first update of any of the symbols. */
  watchBidsAsks(symbols: string[]): Promise<unknown>;
  /** Rejects, with the reason, once any websocket of this client fails or is closed. */
  closed(): Promise<never>;
  close(): Promise<void>;
  /**
   * Destroys every socket of this client at once (ws `terminate()`: no close handshake, which a
   * dead peer never answers and ws would wait 30 s for); pending futures reject with code 1006.
   */
  terminate(): void;
}

/**
 * A key no exchange class resolves: a future under it settles only when ccxt resets the
 * websocket (error, remote close, missed pong, close by us), rejecting every pending future.
 */
const CLOSED_HASH = 'arbitrage-monitor:closed';

/** What inline delivery touches of ccxt 4.5.84's node websocket client (base/ws/WsClient.js). */
interface CcxtWsClient {
  connection?: {
    removeAllListeners(event: string): unknown;
    on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): unknown;
    terminate(): void;
  };
  /** Set by ccxt when the socket failed; a late pong sets a `RequestTimeout` before ccxt closes it. */
  error?: { name?: string };
  close(): unknown;
  createConnection(): void;
  deliverLoop(): Promise<void>;
  onMessage(event: { data: string | Buffer }): void;
}

const inlined = new WeakSet<Exchange>();

/**
 * Makes each websocket of `exchange` hand a message to ccxt's parser (`onMessage`) straight from
 * the socket's 'message' event. ccxt 4.5.84 on node routes every message through a stream and
 * an async iterator (`deliverLoop`: a promise, a microtask and several stream calls per message)
 * so that a caller that re-arms a watch after each resolve is scheduled between two messages.
 * A feed never re-arms: it reads ccxt's cache as the parser writes it, so that hop is pure cost.
 * Text frames reach `onMessage` as strings, as ccxt's own stream gives them.
 */
export function deliverInline(exchange: Exchange): void {
  if (inlined.has(exchange)) return;
  inlined.add(exchange);
  const open = exchange.client.bind(exchange);
  const patched = new WeakSet<object>();
  exchange.client = (url: string) => {
    const ws = open(url) as unknown as CcxtWsClient;
    if (!patched.has(ws)) {
      patched.add(ws);
      const create = ws.createConnection.bind(ws);
      ws.createConnection = () => {
        create();
        // The only 'message' listener is the one feeding ccxt's stream, which nothing reads now.
        ws.connection?.removeAllListeners('message');
        ws.connection?.on('message', (data, isBinary) => ws.onMessage({ data: isBinary ? data : data.toString() }));
      };
      ws.deliverLoop = () => Promise.resolve();
      const close = ws.close.bind(ws);
      ws.close = () => {
        const closing = close();
        // ccxt closes a socket whose pong is late (it has already rejected its futures) with a
        // handshake the silent peer never answers: the socket would linger 30 s. Destroy it now.
        if (ws.error?.name === 'RequestTimeout') ws.connection?.terminate();
        return closing;
      };
    }
    return ws as unknown as ReturnType<Exchange['client']>;
  };
}

/** Rows of a quote book's price index (a one-level book uses two). */
const QUOTE_BOOK_ROWS = 4;

/** The part of a ccxt order book read as a quote: its side arrays (`[price, amount]`, best first). */
interface CcxtBookTop {
  symbol?: unknown;
  timestamp?: unknown;
  bids?: unknown;
  asks?: unknown;
}

function bestOf(side: unknown): [number, number] | undefined {
  const level: unknown = Array.isArray(side) ? side[0] : undefined;
  return Array.isArray(level) && typeof level[0] === 'number' && typeof level[1] === 'number' ? [level[0], level[1]] : undefined;
}

/** The best bid and ask of a ccxt order book, as ccxt's bid/ask cache would hold them. */
export function topOfBook(book: CcxtBookTop): CcxtBidAsk {
  const bid = bestOf(book.bids);
  const ask = bestOf(book.asks);
  return {
    symbol: typeof book.symbol === 'string' ? book.symbol : undefined,
    bid: bid?.[0], bidVolume: bid?.[1], ask: ask?.[0], askVolume: ask?.[1],
    timestamp: typeof book.timestamp === 'number' ? book.timestamp : undefined,
  };
}

/**
 * Quotes from the venue's order-book channel (its folder's `feeds.quotesFrom: 'orderBook'`):
 * every book ccxt resolves is written, as its top level, into `cache[symbol]`, where a feed
 * connection reads bid/ask updates. The book is caught where ccxt hands it to its waiters (the
 * socket's `resolve`), whether or not a watch is pending for it.
 */
function quotesFromBooks(exchange: Exchange, cache: Record<string, CcxtBidAsk | undefined>): void {
  const open = exchange.client.bind(exchange);
  const patched = new WeakSet<object>();
  exchange.client = (url: string) => {
    const ws = open(url) as unknown as { resolve(result: unknown, hash?: string): unknown };
    if (!patched.has(ws)) {
      patched.add(ws);
      const resolve = ws.resolve.bind(ws);
      ws.resolve = (result, hash) => {
        const book = result as CcxtBookTop | undefined;
        if (typeof hash === 'string' && hash.startsWith('orderbook:') && typeof book?.symbol === 'string') cache[book.symbol] = topOfBook(book);
        return resolve(result, hash);
      };
    }
    return ws as unknown as ReturnType<Exchange['client']>;
  };
}

/** A ccxt pro client as a FeedClient, its messages delivered inline (see deliverInline). */
export function toFeedClient(exchange: Exchange, quotesFrom: 'bidsAsks' | 'orderBook' = 'bidsAsks'): FeedClient {
  deliverInline(exchange);
  // bybit's bid/ask channel is a one-level book (orderbook.1), kept by ccxt as an order book.
  compactOrderBooks(exchange, QUOTE_BOOK_ROWS);
  if (quotesFrom === 'orderBook') {
    const cache: Record<string, CcxtBidAsk | undefined> = {};
    quotesFromBooks(exchange, cache);
    return {
      ...socketsOf(exchange),
      bidsasks: cache,
      // One subscription per symbol; settles with the first book of any of them.
      watchBidsAsks: (symbols) => Promise.race(symbols.map((symbol) => exchange.watchOrderBook(symbol))),
    };
  }
  return {
    ...socketsOf(exchange),
    get bidsasks() {
      return exchange.bidsasks as Record<string, CcxtBidAsk | undefined>;
    },
    watchBidsAsks: (symbols) => exchange.watchBidsAsks(symbols),
  };
}

function socketsOf(exchange: Exchange): Pick<FeedClient, 'closed' | 'close' | 'terminate'> {
  return {
    closed: () => {
      const sockets = Object.values(exchange.clients);
      if (sockets.length === 0) return Promise.reject(new Error('no open websocket'));
      return Promise.race(sockets.map((socket) => socket.future(CLOSED_HASH) as Promise<never>));
    },
    close: () => exchange.close(),
    terminate: () => {
      for (const socket of Object.values(exchange.clients) as unknown as CcxtWsClient[]) socket.connection?.terminate();
    },
  };
}
