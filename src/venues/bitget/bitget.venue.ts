import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** bitget: spot and USDT-FUTURES perpetuals, one socket for both (docs/venues.md "bitget"). */
export const bitget = defineVenue({
  name: 'bitget',
  watchedByDefault: true,
  ccxt: { id: 'bitget', options: { fetchMarkets: { types: ['spot', 'swap'] } } },
  // Fewer than 50 channels per connection advised.
  feeds: { perConnection: 50, perSubscribe: 50, dials: { dials: 300, windowMs: 5 * MINUTE } },
  // `books15` (snapshots, the deepest snapshot channel bitget has); 10 client messages a second,
  // 240 subscribe requests an hour; ccxt unsubscribes one symbol per call.
  depth: {
    limit: 15, perSubscribe: 20, perUnsubscribe: 1, perSecond: 2, perHour: 240,
    forSymbols: true, unwatchForSymbols: false, unwatchNamesLimit: true,
  },
  funding: {
    rateParams: { productType: 'USDT-FUTURES' },
    // current-fund-rate, which also gives the next funding time.
    interval: { kind: 'intervals-call', params: { productType: 'USDT-FUTURES' }, nextTime: true },
    // /api/v2/mix/market/history-fund-rate: pages of 100 newest first, no time filter.
    history: { kind: 'backward-page', size: 100 },
    historyCalls: { calls: 10, windowMs: SECOND },
  },
  // 429 with no stated length: at least its 1 s per-endpoint window.
  restBan: { readsRetryAfter: false, minPauseMs: SECOND },
  endpoints: {
    leaves: {
      ...leaves('h', 'spot mix user p2p broker margin common tax convert copy earn uta'),
      ...leaves('w', 'ws.public ws.private ws.utaPublic ws.utaPrivate demo.public demo.private demo.utaPublic demo.utaPrivate'),
    },
    used: { 'ws.public': 'wss://ws.bitget.com/v2/ws/public', spot: 'https://api.bitget.com', mix: 'https://api.bitget.com' },
    quotes: { SPOT: 'ws.public', FUTURES: 'ws.public' },
  },
  networks: { access: 'public', contractField: 'contractAddress' },
  // spot `status` halt, offline; futures `symbolStatus` maintain, off.
  status: {
    fields: ['status', 'symbolStatus'],
    states: { halt: 'halted', offline: 'delisted', maintain: 'halted', off: 'delisted' },
  },
});
