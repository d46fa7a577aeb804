import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** binance: spot and USDⓈ-M perpetuals (docs/venues.md "binance"). */
export const binance = defineVenue({
  name: 'binance',
  watchedByDefault: true,
  ccxt: {
    id: 'binance',
    // `fetchMargins` (on by default) would add two signed sapi margin-pair calls to fetchMarkets
    // as soon as a client holds keys.
    options: { fetchMarkets: { types: ['spot', 'linear'] }, fetchCurrencies: false, fetchMargins: false },
    // fetchCurrencies answers {} unless this option is on; `has.fetchCurrencies: false` still
    // keeps loadMarkets from calling it.
    keyedOptions: { fetchCurrencies: true },
  },
  // 1,024 streams per connection (its futures page has said 200 at times: the service keeps
  // 200); binance gives every distinct watch call a socket of its own, so one request each.
  feeds: { perConnection: 200, perSubscribe: 200, dials: { dials: 300, windowMs: 5 * MINUTE } },
  // `<id>@depth@100ms` (ccxt has no option for the partial `@depth20` stream; it seeds the diff
  // stream with a REST snapshot); ccxt ties a subscription to its exact symbol list, so one symbol
  // per request keeps each unsubscribable on its own; spot allows 5 client messages a second.
  depth: {
    limit: 20, perSubscribe: 1, perUnsubscribe: 1, perSecond: 2, perHour: null,
    forSymbols: true, unwatchForSymbols: true, unwatchNamesLimit: false, socketsPerType: 8,
  },
  funding: {
    rateParams: { subType: 'linear' },
    // /fapi/v1/fundingInfo lists only contracts whose settings were adjusted; the others pay on
    // the standard 8 h schedule. The next time comes from premiumIndex.
    interval: { kind: 'intervals-call', params: { subType: 'linear' }, defaultHours: 8, nextTime: false },
    // /fapi/v1/fundingRate: up to 1,000 oldest first from `since`.
    history: { kind: 'forward', size: 1000 },
    // 400 of the 500 per 5 minutes the history shares with fundingInfo.
    historyCalls: { calls: 400, windowMs: 5 * MINUTE },
  },
  // The one venue that sends Retry-After (429, and the 418 bans from 2 minutes that follow a call made during one).
  restBan: { readsRetryAfter: true, minPauseMs: 0, banMinMs: 2 * MINUTE },
  endpoints: {
    leaves: {
      ...leaves('h', 'sapi sapiV2 sapiV3 sapiV4 dapiPublic dapiPrivate eapiPublic eapiPrivate dapiPrivateV2 dapiData fapiPublic fapiPublicV2 fapiPublicV3 fapiPrivate fapiPrivateV2 fapiPrivateV3 fapiData public private v1 papi papiV2'),
      ...leaves('w', 'ws.spot ws.margin ws.future ws.delivery ws.stock ws.option ws.optionMarket ws.optionPrivate ws.ws-api.spot ws.ws-api.future ws.ws-api.delivery ws.papi'),
    },
    used: {
      'ws.spot': 'wss://stream.binance.com:9443/ws',
      'ws.future': 'wss://fstream.binance.com/ws',
      public: 'https://api.binance.com/api/v3',
      fapiPublic: 'https://fapi.binance.com/fapi/v1',
    },
    quotes: { SPOT: 'ws.spot', FUTURES: 'ws.future' },
  },
  networks: { access: 'signed', contractField: 'contractAddress' },
  // spot `status` HALT, BREAK once delisted; USDⓈ-M `status` / `contractStatus` SETTLING, CLOSE.
  status: {
    fields: ['status', 'contractStatus'],
    states: {
      HALT: 'halted', SETTLING: 'halted', PENDING_TRADING: 'halted', AUCTION_MATCH: 'halted',
      PRE_DELIVERING: 'delisting', DELIVERING: 'delisting',
      BREAK: 'delisted', CLOSE: 'delisted', DELIVERED: 'delisted', END_OF_DAY: 'delisted',
    },
  },
});
