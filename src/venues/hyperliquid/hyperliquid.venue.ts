import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/**
 * hyperliquid: USDC perpetuals and USDC spot on its own chain, one `POST /info` REST call and one
 * websocket for both market types (docs/venues.md "hyperliquid").
 */
export const hyperliquid = defineVenue({
  name: 'hyperliquid',
  // Added after the five the API's contract started with: watched when EXCHANGES names it or says `all`.
  watchedByDefault: false,
  quoteCurrency: 'USDC',
  onChain: {
    transfer: 'on-chain venue: no withdrawal-fee table; a transfer to or from it goes through its bridge (Arbitrum USDC) at a cost the service does not know, so the route is not priced as transferable',
  },
  ccxt: {
    id: 'hyperliquid',
    // Spot and the main dex's perpetuals only: the HIP-3 dexes would add perpDexs and up to ten
    // metaAndAssetCtxs calls (weight 20 each) to every markets load.
    options: { fetchMarkets: { types: ['spot', 'swap'] } },
    // `kPEPE` is 1,000 PEPE (its price is per thousand): read as `1000PEPE`.
    lotPrefixes: { k: 1000 },
  },
  // ccxt has no bid/ask watch here (the venue's `bbo` channel is unused): quotes come from
  // `l2Book`, one subscribe message per coin. Per IP: at most 10 connections, 30 new ones a
  // minute and 1,000 subscriptions across all of them; 200 a connection keeps 1,000 symbols
  // within 5 connections, the rest for the depth client.
  feeds: { perConnection: 200, perSubscribe: 1, dials: { dials: 30, windowMs: MINUTE }, quotesFrom: 'orderBook' },
  // `l2Book` is always the top 20 levels a side, a whole snapshot each push (ccxt resets its
  // book); one subscription per message; 2,000 client messages a minute per IP, so 5 a second
  // on the depth connection leaves room for the feeds and pings.
  depth: {
    limit: 20, perSubscribe: 1, perUnsubscribe: 1, perSecond: 5, perHour: null,
    forSymbols: false, unwatchForSymbols: false, unwatchNamesLimit: false,
  },
  funding: {
    // metaAndAssetCtxs answers every perpetual of the main dex.
    rateParams: {},
    // It pays every hour; ccxt puts `interval: '1h'` on each rate.
    interval: { kind: 'rate' },
    // info `fundingHistory` from `startTime`, oldest first, at most 500 a response.
    history: { kind: 'forward', size: 500 },
    // Weight 20 plus 1 per 20 rows (up to 45) of 1,200 a minute per IP: 20 calls a minute
    // leave half the weight for markets and rates.
    historyCalls: { calls: 20, windowMs: MINUTE },
  },
  // 1,200 weight a minute per IP; its answer beyond it and any Retry-After are not documented:
  // wait out the minute.
  restBan: { readsRetryAfter: false, minPauseMs: MINUTE },
  endpoints: {
    leaves: {
      ...leaves('h', 'public private'),
      ...leaves('w', 'ws.public'),
    },
    used: {
      'ws.public': 'wss://api.hyperliquid.xyz/ws',
      public: 'https://api.hyperliquid.xyz',
    },
    quotes: { SPOT: 'ws.public', FUTURES: 'ws.public' },
  },
  networks: { access: 'none', contractField: 'evmContract' },
  // Perpetual rows carry `isDelisted: true` once delisted (ccxt then sets `active` false).
  status: { fields: [], states: {}, flags: { isDelisted: 'delisted' } },
});
