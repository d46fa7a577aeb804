import type { Market } from '../../../market-model/exchanges.js';
import { contractSizeFor, decimalsOf, formatPlain, formatStep, toContracts, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import {
  listedTickerFromId, ok, parseJsonObject, stringList,
  type ExchangeProtocol, type RestReply, type RestRequest, type WsSession,
} from '../protocol.js';
import { NO_LOTS } from '../lots.js';
import { fundingFields } from '../funding-rest.js';
import { PERPETUALS, gateFundingMembers, gateFundingHistory } from './funding.js';
import { gateDepthSubscription, gateOrderBook, renderGateDepth } from './depth.js';
import { withVenueStatus } from '../venue-status.js';
import { STATUS } from './listing.js';

/**
 * Gate v4: REST on api.gateio.ws/api/v4 (spot and futures/usdt), websockets on
 * api.gateio.ws/ws/v4/ (spot) and fx-ws.gateio.ws/v4/ws/usdt (perpetuals). Ids are `BTC_USDT`;
 * perpetuals trade in contracts of `quanto_multiplier` base units. Bid/ask is
 * `spot.book_ticker` / `futures.book_ticker`, depth in depth.ts; keepalive is the protocol ping, answered by the hub.
 */
const CONTRACT_MAX_USD = 10;
const API = '/api/v4';

const idOf = (ticker: string): string => ticker.replace('-', '_');
const quanto = (i: Instrument): number => contractSizeFor(i, CONTRACT_MAX_USD);

function currencyPair(i: Instrument): Record<string, unknown> {
  return {
    id: idOf(i.ticker), base: i.base, base_name: i.base, quote: i.quote, quote_name: 'Tether', fee: '0.2',
    min_base_amount: formatPlain(i.lotStep), min_quote_amount: '3', max_base_amount: '', max_quote_amount: '5000000',
    amount_precision: decimalsOf(i.lotStep), precision: decimalsOf(i.tick), trade_status: 'tradable',
    sell_start: 0, buy_start: 0, delisting_time: 0, type: 'normal', trade_url: `https://www.gate.io/trade/${idOf(i.ticker)}`,
    st_tag: false,
  };
}

function contract(i: Instrument, state: MarketState): Record<string, unknown> {
  const q = state.get('gate', 'FUTURES', i.ticker);
  const mark = formatStep(q ? (q.bid + q.ask) / 2 : i.mid, i.tick);
  const funding = state.funding.get('gate', i.ticker);
  const row: Record<string, unknown> = {
    name: idOf(i.ticker), type: 'direct', quanto_multiplier: formatPlain(quanto(i)), ref_discount_rate: '0',
    order_price_deviate: '0.5', maintenance_rate: '0.005', mark_type: 'index', last_price: mark, mark_price: mark,
    index_price: mark, mark_price_round: formatPlain(i.tick / 10),
    funding_offset: 0, in_delisting: false, risk_limit_base: '1000000', interest_rate: '0.0003',
    order_price_round: formatStep(i.tick, i.tick), order_size_min: 1, ref_rebate_rate: '0.2',
    risk_limit_step: '1000000', leverage_min: '1', leverage_max: '100',
    risk_limit_max: '8000000', maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075',
    order_size_max: 1000000, orders_limit: 50,
    create_time: 1596012000, funding_cap_ratio: '0.75', status: 'trading', launch_time: 1596012000,
  };
  return funding ? Object.assign(row, gateFundingMembers(fundingFields(state, PERPETUALS, funding))) : row;
}

function spotTicker(q: SimQuote, i: Instrument): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  return {
    currency_pair: idOf(q.ticker), last, lowest_ask: formatStep(q.ask, i.tick), lowest_size: formatPlain(q.askQty),
    highest_bid: formatStep(q.bid, i.tick), highest_size: formatPlain(q.bidQty), change_percentage: '0',
    base_volume: (q.volume / Number(last)).toFixed(6), quote_volume: q.volume.toFixed(2), high_24h: last, low_24h: last,
  };
}

function futuresTicker(q: SimQuote, i: Instrument, state: MarketState): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  const funding = state.funding.get('gate', q.ticker);
  const rate = funding ? fundingFields(state, PERPETUALS, funding).rate : '';
  const base = q.volume / Number(last);
  return {
    contract: idOf(q.ticker), last, change_percentage: '0', total_size: '100000', low_24h: last, high_24h: last,
    volume_24h: String(Math.round(base / quanto(i))), volume_24h_base: base.toFixed(6),
    volume_24h_quote: q.volume.toFixed(2), volume_24h_settle: q.volume.toFixed(2), mark_price: last,
    funding_rate: rate, funding_rate_indicative: rate, index_price: last,
    highest_bid: formatStep(q.bid, i.tick), highest_size: toContracts(q.bidQty, quanto(i)),
    lowest_ask: formatStep(q.ask, i.tick), lowest_size: toContracts(q.askQty, quanto(i)),
  };
}

function tickers(req: RestRequest, state: MarketState, market: Market): RestReply {
  const wanted = req.query.get(market === 'SPOT' ? 'currency_pair' : 'contract');
  const rows = state.list({ exchange: 'gate', market })
    .filter((q) => !wanted || idOf(q.ticker) === wanted)
    .flatMap((q) => {
      const i = state.instrument(q.ticker);
      if (!i) return [];
      return [market === 'SPOT' ? spotTicker(q, i) : futuresTicker(q, i, state)];
    });
  return ok(rows);
}

/** Public currency list with each chain's transfer state (PUT /_sim/networks); gate publishes no fee here. */
function currencies(state: MarketState): Record<string, unknown>[] {
  return [...state.networks.byAsset('gate')].map(([asset, networks]) => ({
    currency: asset, name: asset, delisted: false, trade_disabled: false, fixed_rate: '',
    withdraw_disabled: !networks.some((n) => n.withdrawEnabled), withdraw_delayed: false,
    deposit_disabled: !networks.some((n) => n.depositEnabled), chain: networks[0]?.network ?? '',
    chains: networks.map((n) => ({
      name: n.network, addr: n.contract ?? '', withdraw_disabled: !n.withdrawEnabled, withdraw_delayed: false, deposit_disabled: !n.depositEnabled,
    })),
  }));
}

function rest(req: RestRequest, state: MarketState): RestReply | undefined {
  switch (req.path) {
    case `${API}/spot/currency_pairs`:
      return ok(state.listed('gate', 'SPOT').map((i) => withVenueStatus(state, 'gate', STATUS, 'SPOT', i.ticker, currencyPair(i))));
    case `${API}/margin/currency_pairs`:
      return ok([]);
    case `${API}/spot/currencies`:
      return ok(currencies(state));
    case `${API}/futures/usdt/contracts`:
      return ok(state.listed('gate', 'FUTURES').map((i) => withVenueStatus(state, 'gate', STATUS, 'FUTURES', i.ticker, contract(i, state))));
    case `${API}/spot/tickers`:
      return tickers(req, state, 'SPOT');
    case `${API}/futures/usdt/tickers`:
      return tickers(req, state, 'FUTURES');
    case `${API}/spot/order_book`:
      return gateOrderBook(req, state, 'SPOT', quanto);
    case `${API}/futures/usdt/order_book`:
      return gateOrderBook(req, state, 'FUTURES', quanto);
    case `${API}/futures/usdt/funding_rate`:
      return gateFundingHistory(req, state);
    case `${API}/spot/time`:
      return ok({ server_time: Date.now() });
    default:
      return undefined;
  }
}

function onSubscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const channel = typeof msg.channel === 'string' ? msg.channel : '';
  const market: Market = channel.startsWith('futures.') ? 'FUTURES' : 'SPOT';
  const subscribing = msg.event === 'subscribe';
  const now = Date.now();
  const base = { time: Math.floor(now / 1000), time_ms: now, id: msg.id ?? null, conn_id: 'sim', channel, event: msg.event };
  if (!channel.endsWith('.book_ticker')) {
    const sub = gateDepthSubscription(channel, msg.payload, state);
    if (typeof sub === 'string') {
      session.reply({ ...base, error: { code: 2, message: sub }, result: { status: 'fail' } });
      return;
    }
    if (subscribing) session.subscribe(sub);
    else session.unsubscribe(sub);
    session.reply({ ...base, payload: msg.payload, result: { status: 'success' } });
    if (subscribing) session.pushNow(sub);
    return;
  }
  const ids = stringList(msg.payload);
  const subs = ids.flatMap((id) => {
    const ticker = listedTickerFromId(id, state, 'gate', market, NO_LOTS);
    return ticker ? [{ market, ticker }] : [];
  });
  const unknown = subscribing ? ids.find((id) => listedTickerFromId(id, state, 'gate', market, NO_LOTS) === undefined) : undefined;
  if (unknown !== undefined) {
    const kind = market === 'FUTURES' ? 'contract' : 'currency pair';
    session.reply({ ...base, error: { code: 2, message: `unknown ${kind} ${unknown}` }, result: null });
    return;
  }
  for (const sub of subs) {
    if (subscribing) session.subscribe(sub);
    else session.unsubscribe(sub);
  }
  session.reply({ ...base, payload: msg.payload, result: { status: 'success' } });
  if (subscribing) for (const sub of subs) session.pushNow(sub);
}

export const gateProtocol: ExchangeProtocol = {
  name: 'gate',
  ownsHost: (hostname) => hostname.endsWith('gateio.ws') || hostname.endsWith('gate.io') || hostname.endsWith('gateio.live'),
  rest,
  onMessage(session, text, state) {
    const msg = parseJsonObject(text);
    if (msg?.event === 'subscribe' || msg?.event === 'unsubscribe') {
      onSubscribe(session, msg, state);
    } else if (msg && typeof msg.channel === 'string' && msg.channel.endsWith('.ping')) {
      // Gate also accepts an application ping on `spot.ping` / `futures.ping`.
      session.reply({ time: Math.floor(Date.now() / 1000), channel: msg.channel.replace('.ping', '.pong'), event: '', result: null });
    }
  },
  renderDepth: (sub, frame, state) => renderGateDepth(sub, frame, state, quanto),
  render(q, state) {
    const i = state.instrument(q.ticker);
    if (!i) return '{}';
    const futures = q.market === 'FUTURES';
    const size = (qty: number): string | number => (futures ? Number(toContracts(qty, quanto(i))) : formatPlain(qty));
    return JSON.stringify({
      time: Math.floor(q.updatedAt / 1000), time_ms: q.updatedAt,
      channel: futures ? 'futures.book_ticker' : 'spot.book_ticker', event: 'update',
      result: {
        t: q.updatedAt, u: q.seq, s: idOf(q.ticker), b: formatStep(q.bid, i.tick), B: size(q.bidQty),
        a: formatStep(q.ask, i.tick), A: size(q.askQty),
      },
    });
  },
};
