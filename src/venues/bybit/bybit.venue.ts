import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** bybit: spot and linear (USDT) perpetuals (docs/venues.md "bybit"). */
export const bybit = defineVenue({
  name: 'bybit',
  watchedByDefault: true,
  ccxt: { id: 'bybit', options: { fetchMarkets: { types: ['spot', 'linear'] } } },
  // spot takes at most 10 args per subscribe request, any number of requests per connection.
  feeds: { perConnection: 100, perSubscribe: 10, dials: { dials: 500, windowMs: 5 * MINUTE } },
  // `orderbook.50`; the unsubscribe names the channel by its depth.
  depth: {
    limit: 50, perSubscribe: 10, perUnsubscribe: 10, perSecond: 4, perHour: null,
    forSymbols: true, unwatchForSymbols: true, unwatchNamesLimit: true,
  },
  funding: {
    rateParams: { type: 'swap', subType: 'linear' },
    // `fundingInterval` (minutes) of the linear instrument, read fresh each time: bybit moves
    // contracts to 4 h / 1 h when the rate hits its cap.
    interval: { kind: 'instrument-minutes', params: { category: 'linear' } },
    // /v5/market/funding/history: at most 200 in [since, until]; ccxt would stretch `until` by
    // 200 × the current interval, which skips payments after a move to a shorter interval, so
    // each page asks for 200 hours (200 payments at the shortest, 1 h, interval).
    history: { kind: 'forward-window', size: 200, windowHours: 200 },
    historyCalls: { calls: 50, windowMs: 5 * SECOND },
  },
  // 403 "access too frequent", then 10 minutes without a call.
  restBan: { readsRetryAfter: false, minPauseMs: 10 * MINUTE },
  endpoints: {
    leaves: {
      ...leaves('h', 'spot futures v2 public private'),
      ...leaves('w', 'ws.public.spot ws.public.inverse ws.public.option ws.public.linear ws.private.spot.unified ws.private.spot.nonUnified ws.private.contract ws.private.usdc ws.private.trade'),
    },
    used: {
      'ws.public.spot': 'wss://stream.bybit.com/v5/public/spot',
      'ws.public.linear': 'wss://stream.bybit.com/v5/public/linear',
      public: 'https://api.bybit.com',
    },
    quotes: { SPOT: 'ws.public.spot', FUTURES: 'ws.public.linear' },
  },
  networks: { access: 'signed', contractField: 'contractAddress' },
  status: {
    fields: ['status'],
    states: { Closed: 'delisted', Delivering: 'delisting', PreLaunch: 'halted' },
  },
});
