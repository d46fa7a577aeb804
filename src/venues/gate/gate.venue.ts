import { defineVenue, leaves } from '../venue.js';

const SECOND = 1_000;

/** gate: spot and USDT-settled perpetuals (docs/venues.md "gate"). */
export const gate = defineVenue({
  name: 'gate',
  watchedByDefault: true,
  ccxt: {
    id: 'gate',
    options: { fetchMarkets: { types: ['spot', 'swap'] }, swap: { fetchMarkets: { settlementCurrencies: ['usdt'] } } },
  },
  // No cap on new connections stated.
  feeds: { perConnection: 100, perSubscribe: 100, dials: null },
  // `spot.obu` / `futures.order_book_update`; ccxt has no …ForSymbols here.
  depth: {
    limit: 20, perSubscribe: 1, perUnsubscribe: 1, perSecond: 4, perHour: null,
    forSymbols: false, unwatchForSymbols: false, unwatchNamesLimit: true,
  },
  funding: {
    rateParams: { settle: 'usdt' },
    // `funding_interval` of the contract, which is also its rate answer.
    interval: { kind: 'rate' },
    // /api/v4/futures/usdt/funding_rate: up to 1,000 newest first in [since, until].
    history: { kind: 'backward-until', size: 1000 },
    historyCalls: { calls: 50, windowMs: 10 * SECOND },
  },
  // 429 with no stated length: at least its 10 s window.
  restBan: { readsRetryAfter: false, minPauseMs: 10 * SECOND },
  endpoints: {
    leaves: {
      ...leaves('h', 'public.wallet public.futures public.margin public.delivery public.spot public.options public.sub_accounts public.earn'),
      ...leaves('h', 'private.withdrawals private.wallet private.futures private.margin private.delivery private.spot private.options private.subAccounts private.unified private.rebate private.earn private.account private.loan private.otc'),
      ...leaves('w', 'ws spot swap.usdt swap.btc future.usdt future.btc option.usdt option.btc'),
    },
    used: {
      spot: 'wss://api.gateio.ws/ws/v4/',
      'swap.usdt': 'wss://fx-ws.gateio.ws/v4/ws/usdt',
      'public.spot': 'https://api.gateio.ws/api/v4',
      'public.futures': 'https://api.gateio.ws/api/v4',
    },
    quotes: { SPOT: 'spot', FUTURES: 'swap.usdt' },
  },
  networks: { access: 'public', contractField: 'addr' },
  // spot `trade_status` untradable; futures `status` / `in_delisting`.
  status: {
    fields: ['trade_status', 'status'],
    states: { untradable: 'halted', delisting: 'delisting', delisted: 'delisted' },
    flags: { in_delisting: 'delisting' },
  },
});
