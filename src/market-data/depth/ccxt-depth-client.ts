import type { Exchange } from 'ccxt';
import { type DialPacer, paceDials } from '../ccxt/dial-pacing.js';
import { compactOrderBooks } from '../ccxt/compact-books.js';
import { deliverInline } from '../ccxt/feed-client.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { DepthClient, DepthClientBook } from './depth-feed.js';
import { BINANCE_DEPTH_STREAMS, DEPTH_RULES } from './depth-limits.js';

/** Rows a depth book's price index starts with: the deepest channel (bybit's) sends 50 a side. */
const DEPTH_BOOK_ROWS = 64;

/**
 * A ccxt pro client as a DepthClient: `watchOrderBook` on the venue's channel (DEPTH_RULES'
 * `limit` selects it), many symbols in one request where ccxt can (`…ForSymbols`), books read
 * from ccxt's cache as its parser writes them (messages delivered inline, as for the quotes).
 * ccxt dials by itself when a request needs a socket, so each dial first waits for `dialPacer`:
 * the venue counts depth sockets against the same new-connection allowance as the quote feeds'.
 */
export function toDepthClient(exchange: ExchangeName, client: Exchange, dialPacer?: DialPacer): DepthClient {
  deliverInline(client);
  compactOrderBooks(client, DEPTH_BOOK_ROWS);
  if (dialPacer) paceDials(client, dialPacer);
  if (exchange === 'binance') {
    const limits = { spot: BINANCE_DEPTH_STREAMS, future: BINANCE_DEPTH_STREAMS };
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
  const { limit } = DEPTH_RULES[exchange];
  // gate has no …ForSymbols; bitget unsubscribes one symbol per call.
  const manyAtOnce = exchange !== 'gate';
  return {
    get messages() {
      return messages;
    },
    get orderbooks() {
      return client.orderbooks as unknown as Record<string, DepthClientBook | undefined>;
    },
    subscribe: (symbols) =>
      symbols.length === 1 || !manyAtOnce ? Promise.all(symbols.map((s) => client.watchOrderBook(s, limit))) : client.watchOrderBookForSymbols(symbols, limit),
    unsubscribe: (symbols) =>
      symbols.length === 1 || !manyAtOnce || exchange === 'bitget'
        ? Promise.all(symbols.map((s) => client.unWatchOrderBook(s, unwatchParams(exchange))))
        : client.unWatchOrderBookForSymbols(symbols, unwatchParams(exchange)),
    close: () => client.close(),
  };
}

/** bybit, gate and bitget name the channel of the unsubscribe by the depth it was subscribed with. */
function unwatchParams(exchange: ExchangeName): Record<string, unknown> {
  return exchange === 'bybit' || exchange === 'gate' || exchange === 'bitget' ? { limit: DEPTH_RULES[exchange].limit } : {};
}
