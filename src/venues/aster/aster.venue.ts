import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** aster: spot and USDT perpetuals, a binance-like API (docs/venues.md "aster"). */
export const aster = defineVenue({
  name: 'aster',
  // Added after the five the API's contract started with: watched when EXCHANGES names it or says `all`.
  watchedByDefault: false,
  ccxt: {
    id: 'aster',
    // fetchMarkets always reads both exchangeInfo calls (spot and perpetuals) and has no option to
    // narrow them; the factory's `has.fetchCurrencies: false` keeps loadMarkets from a third
    // (spot exchangeInfo again, for its asset list).
    options: {},
  },
  // ccxt puts every watchBidsAsks call of a market type on one socket and sends each call as one
  // SUBSCRIBE: 200 streams per perpetual connection (spot allows 1,024; one figure serves both),
  // all in one message, far under 10 (perpetual) and 5 (spot, pings and pongs counted) messages
  // a second. New connections per IP are not stated.
  feeds: { perConnection: 200, perSubscribe: 200, dials: null },
  // `<id>@depth20`, a partial book each push (ccxt resets the book on every message); several
  // symbols per SUBSCRIBE; 2 requests a second stay under spot's 5 messages with room for pings.
  depth: {
    limit: 20, perSubscribe: 10, perUnsubscribe: 10, perSecond: 2, perHour: null,
    forSymbols: true, unwatchForSymbols: true, unwatchNamesLimit: true,
    // ccxt 4.5.84's aster client handles no UNSUBSCRIBE acknowledgement.
    unwatchSettles: false,
  },
  funding: {
    // premiumIndex answers every perpetual at once; no parameter selects them.
    rateParams: {},
    // /fapi/v3/fundingInfo states `fundingIntervalHours` per contract (8 or 4); one absent from it
    // pays on the standard 8 h. The next time comes from premiumIndex.
    interval: { kind: 'intervals-call', params: {}, defaultHours: 8, nextTime: false },
    // ccxt reads premiumIndex's `nextFundingTime` into `nextFundingTimestamp` (its fundingTimestamp stays empty).
    nextTimeField: 'nextFundingTimestamp',
    // /fapi/v3/fundingRate: up to 1,000 oldest first from `startTime`.
    history: { kind: 'forward', size: 1000 },
    // Weight 1 each out of the perpetuals' 2,400 per minute; ccxt's own pacing (333 ms) allows
    // 180 calls a minute, and the rest of the minute's weight stays free for markets and rates.
    historyCalls: { calls: 150, windowMs: MINUTE },
  },
  // 429, then a 418 ban of 2 minutes to 3 days for a client that keeps calling. Retry-After is
  // stated for spot only: read where sent; a 429 without it waits out the weight window.
  restBan: { readsRetryAfter: true, minPauseMs: MINUTE, banMinMs: 2 * MINUTE },
  endpoints: {
    leaves: {
      ...leaves('h', 'fapiPublic fapiPrivate sapiPublic sapiPrivate'),
      ...leaves('w', 'ws.public.spot ws.public.swap ws.private.spot ws.private.swap'),
    },
    used: {
      'ws.public.spot': 'wss://sstream.asterdex.com/stream',
      'ws.public.swap': 'wss://fstream.asterdex.com/stream',
      sapiPublic: 'https://sapi.asterdex.com/api',
      fapiPublic: 'https://fapi.asterdex.com/fapi',
    },
    quotes: { SPOT: 'ws.public.spot', FUTURES: 'ws.public.swap' },
  },
  // ccxt's fetchCurrencies is public but lists assets only, without networks; the venue
  // publishes none to a public call, and ccxt refuses API keys (it signs with a wallet key).
  networks: { access: 'signed', contractField: 'contractAddress' },
  // binance-like `status`: spot HALT, BREAK once delisted; perpetuals SETTLING, CLOSE.
  status: {
    fields: ['status'],
    states: {
      HALT: 'halted', SETTLING: 'halted', PENDING_TRADING: 'halted', PRE_SETTLE: 'delisting',
      BREAK: 'delisted', CLOSE: 'delisted',
    },
  },
});
