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
    unsubscribe: (symbols) =>
      symbols.length === 1 || !rule.unwatchForSymbols
        ? Promise.all(symbols.map((s) => client.unWatchOrderBook(s, unwatchParams)))
        : client.unWatchOrderBookForSymbols(symbols, unwatchParams),
    close: () => client.close(),
  };
}
