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

/** A ccxt pro client as a FeedClient, its messages delivered inline (see deliverInline). */
export function toFeedClient(exchange: Exchange): FeedClient {
  deliverInline(exchange);
  // bybit's bid/ask channel is a one-level book (orderbook.1), kept by ccxt as an order book.
  compactOrderBooks(exchange, QUOTE_BOOK_ROWS);
  return {
    get bidsasks() {
      return exchange.bidsasks as Record<string, CcxtBidAsk | undefined>;
    },
    watchBidsAsks: (symbols) => exchange.watchBidsAsks(symbols),
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
