import { defineVenue } from '../venue.js';

const SECOND = 1_000;

/** okx: spot and USDT swaps, one socket for both (docs/venues.md "okx"). */
export const okx = defineVenue({
  name: 'okx',
  watchedByDefault: true,
  ccxt: { id: 'okx', options: { fetchMarkets: { types: ['spot', 'swap'] } } },
  // 3 new connections per second; `64008` is its notice before a service upgrade, raised by ccxt
  // as an error on every future of the socket: the old socket serves until okx closes it 60 s later.
  feeds: { perConnection: 100, perSubscribe: 100, dials: { dials: 3, windowMs: SECOND }, upgradeNotice: /\b64008\b/ },
  // `books` (`books5` holds only 5 levels); 480 subscribe requests per hour per connection.
  depth: {
    limit: 20, perSubscribe: 20, perUnsubscribe: 20, perSecond: 2, perHour: 480,
    forSymbols: true, unwatchForSymbols: true, unwatchNamesLimit: false,
  },
  funding: {
    rateParams: { type: 'swap' },
    // The rate answer carries the next and following funding time; mark prices come from
    // fetchMarkPrices, the rate answer has none.
    interval: { kind: 'rate' },
    markPrices: { params: { type: 'swap' } },
    // /api/v5/public/funding-rate-history: up to 400 newest first; backward with `after`.
    history: { kind: 'backward-after', size: 400 },
    // 10 per 2 s of its 20 per path (10 per instrument).
    historyCalls: { calls: 10, windowMs: 2 * SECOND },
  },
  // 429 `50011`, no stated length: at least the limit's window.
  restBan: { readsRetryAfter: false, minPauseMs: 2 * SECOND },
  endpoints: {
    leaves: { rest: 'h', ws: 'w' },
    used: { ws: 'wss://ws.okx.com:8443/ws/v5', rest: 'https://www.okx.com' },
    quotes: { SPOT: 'ws', FUTURES: 'ws' },
    // Port 443: ccxt still dials `:8443`, a port okx is reported to have stopped accepting on 2026-10-31.
    defaults: { ws: 'wss://ws.okx.com/ws/v5' },
  },
  networks: { access: 'signed', contractField: 'ctAddr' },
  status: { fields: ['state'], states: { suspend: 'halted', preopen: 'halted' } },
});
