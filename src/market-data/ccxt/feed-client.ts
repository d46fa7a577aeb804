import type { Exchange } from 'ccxt';

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
}

/**
 * A key no exchange class resolves: a future under it settles only when ccxt resets the
 * websocket (error, remote close, missed pong, close by us), rejecting every pending future.
 */
const CLOSED_HASH = 'arbitrage-monitor:closed';

/** A ccxt pro client as a FeedClient. */
export function toFeedClient(exchange: Exchange): FeedClient {
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
  };
}
