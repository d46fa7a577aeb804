import type { Exchange } from 'ccxt';
import { type DialPacer, paceDials } from '../ccxt/dial-pacing.js';
import { compactOrderBooks } from '../ccxt/compact-books.js';
import { deliverInline } from '../ccxt/feed-client.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { DepthClient, DepthClientBook } from './depth-feed.js';
import { venueOf } from '../../venues/registry.js';

/** Rows a depth book's price index starts with: the deepest channel the venues use sends 50 a side. */
const DEPTH_BOOK_ROWS = 64;

/**
 * A ccxt pro client as a DepthClient: `watchOrderBook` on the venue's channel (its `depth.limit`
 * selects it), many symbols in one request where ccxt can (`…ForSymbols`), books read
 * from ccxt's cache as its parser writes them (messages delivered inline, as for the quotes).
 * ccxt dials by itself when a request needs a socket, so each dial first waits for `dialPacer`:
 * the venue counts depth sockets against the same new-connection allowance as the quote feeds'.
 */
export function toDepthClient(exchange: ExchangeName, client: Exchange, dialPacer?: DialPacer): DepthClient {
  deliverInline(client);
  compactOrderBooks(client, DEPTH_BOOK_ROWS);
  if (dialPacer) paceDials(client, dialPacer);
  const rule = venueOf(exchange).depth;
  if (rule.socketsPerType !== undefined) {
    const limits = { spot: rule.socketsPerType, future: rule.socketsPerType };
    client.options['streamLimits'] = { ...(client.options['streamLimits'] as object), ...limits };
  }
  // Counted for the ingest stats (book updates are the larger part of a held book's cost). ccxt
  // binds handleMessage to each socket as it creates it, so the wrapper is in place for all.
  let messages = 0;
  const handle = client.handleMessage.bind(client);
  client.handleMessage = (ws, message) => {
    messages++;
    return handle(ws, message);
  };
  const { limit } = rule;
  const unwatchParams = rule.unwatchNamesLimit ? { limit } : {};
  return {
    get messages() {
      return messages;
    },
    get orderbooks() {
      return client.orderbooks as unknown as Record<string, DepthClientBook | undefined>;
    },
    subscribe: (symbols) =>
      symbols.length === 1 || !rule.forSymbols ? Promise.all(symbols.map((s) => client.watchOrderBook(s, limit))) : client.watchOrderBookForSymbols(symbols, limit),
    unsubscribe: (symbols) => {
      const sent = symbols.length === 1 || !rule.unwatchForSymbols
        ? Promise.all(symbols.map((s) => client.unWatchOrderBook(s, unwatchParams)))
        : client.unWatchOrderBookForSymbols(symbols, unwatchParams);
      return rule.unwatchSettles === false ? forgetBooks(client, symbols, sent) : sent;
    },
    close: () => client.close(),
  };
}

/** What the cleanup touches of ccxt 4.5.84's websocket client (base/ws/Client.js). */
interface CcxtSocket {
  subscriptions: Record<string, unknown>;
  futures: Record<string, unknown>;
  reject(error: Error, messageHash: string): void;
}

/**
 * For a venue whose unsubscribe ccxt never settles (`depth.unwatchSettles: false`): once ccxt has
 * had its turn to send the request, the book's records are dropped as ccxt's own acknowledgement
 * handler would drop them on other venues (`orderbook:<symbol>` and `unsubscribe:orderbook:<symbol>`
 * subscriptions, the pending futures, the cached book), so a later watch of the symbol subscribes
 * again and no future is left pending. Resolves once done.
 */
async function forgetBooks(client: Exchange, symbols: readonly string[], sent: Promise<unknown>): Promise<void> {
  const settled = sent.then(() => undefined, () => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  const books = client.orderbooks as unknown as Record<string, unknown>;
  for (const socket of Object.values(client.clients) as unknown as CcxtSocket[]) {
    for (const symbol of symbols) {
      const unsubscribed = new Error(`unsubscribed ${symbol}`);
      for (const hash of [`orderbook:${symbol}`, `unsubscribe:orderbook:${symbol}`]) {
        delete socket.subscriptions[hash];
        if (hash in socket.futures) socket.reject(unsubscribed, hash);
      }
    }
  }
  for (const symbol of symbols) delete books[symbol];
  await settled;
}
