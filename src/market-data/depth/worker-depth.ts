import type { CcxtIngest } from '../ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../ccxt/exchange-clients.js';
import { systemClock } from '../clock.js';
import type { IngestWorkerConfig } from '../ingest/ingest-protocol.js';
import { toDepthClient } from './ccxt-depth-client.js';
import { DepthFeeds } from './depth-feeds.js';

/** Books are read from ccxt's cache this often: the snapshot channels push every 100 ms. */
export const DEPTH_POLL_MS = 100;
/** A refused depth subscription is tried again after this long. */
export const DEPTH_RETRY_MS = 5000;

/**
 * The depth feeds of an ingest worker, on ccxt clients of their own (pointed at the simulator when
 * configured) sharing the quote feeds' market objects, dialling within the same per-exchange connection allowance as the quote feeds.
 */
export function createDepthFeeds(config: IngestWorkerConfig, ingest: CcxtIngest, onBatch: (batch: Float64Array) => void): DepthFeeds {
  return new DepthFeeds({
    createClient: async (exchange, market) => {
      const client = createExchangeClient(exchange, { simulatorUrl: config.simulatorUrl ?? undefined, urls: config.exchangeUrls[exchange] });
      // The type's market objects by reference, shared with the quote feeds' clients.
      client.setMarketsFromExchange(await ingest.typeMarkets(exchange, market));
      return toDepthClient(exchange, client, ingest.dialPacer(exchange));
    },
    markets: (exchange) => ingest.loadedMarkets(exchange),
    clock: systemClock,
    pollMs: DEPTH_POLL_MS,
    retryMs: DEPTH_RETRY_MS,
    onBatch,
  });
}
