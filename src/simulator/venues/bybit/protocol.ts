import type { Market } from '../../../market-model/exchanges.js';
import { formatPlain, formatStep, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import type { SimNetwork } from '../../network-state.js';
import {
  apiKeyOf, listedTickerFromId, ok, parseJsonObject, stringList,
  type DepthFrame, type ExchangeProtocol, type RestReply, type RestRequest, type Subscription, type WsSession,
} from '../protocol.js';
import { levelFormat, rows, scaled } from '../depth-levels.js';
import { deltaWithin } from '../../depth-book.js';
import { fundingFields } from '../funding-rest.js';
import { PERPETUALS, bybitFundingInterval, bybitFundingHistory } from './funding.js';
import { venueInstrument, venueQuote } from '../lots.js';
import { withVenueStatus } from '../venue-status.js';
import { LOTS, STATUS } from './listing.js';

/**
 * Bybit v5: REST on api.bybit.com (`category=spot|linear`), public websockets on
 * stream.bybit.com/v5/public/{spot,linear}; bid/ask is the `orderbook.1.<id>` topic, depth
 * `orderbook.50|200|1000.<id>`. Keepalive is
 * the application ping `{op:"ping"}`, answered with a pong in the shape of each socket type.
 * Networks come from the signed /v5/asset/coin/query-info (API key in `X-BAPI-API-KEY`).
 */
const idOf = (ticker: string): string => ticker.replace('-', '');

function envelope(result: unknown): RestReply {
  return ok({ retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: Date.now() });
}

function spotInstrument(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), baseCoin: i.base, quoteCoin: i.quote, innovation: '0', status: 'Trading',
    marginTrading: 'utaOnly', stTag: '0',
    lotSizeFilter: {
      basePrecision: formatPlain(i.lotStep), quotePrecision: '0.00000001', minOrderQty: formatPlain(i.lotStep),
      maxOrderQty: '1000000', minOrderAmt: '5', maxOrderAmt: '8000000',
    },
    priceFilter: { tickSize: formatStep(i.tick, i.tick) },
    riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
  };
}

function linearInstrument(unit: Instrument, state: MarketState): Record<string, unknown> {
  const i = venueInstrument(LOTS, 'FUTURES', unit);
  const tick = formatStep(i.tick, i.tick);
  const step = formatPlain(i.lotStep);
  return {
    symbol: idOf(i.ticker), contractType: 'LinearPerpetual', status: 'Trading', baseCoin: i.base,
    quoteCoin: i.quote, launchTime: '1585526400000', deliveryTime: '0', deliveryFeeRate: '',
    priceScale: String(Math.max(0, Math.round(-Math.log10(i.tick)))),
    leverageFilter: { minLeverage: '1', maxLeverage: '100.00', leverageStep: '0.01' },
    priceFilter: { minPrice: tick, maxPrice: '1999999.80', tickSize: tick },
    lotSizeFilter: {
      maxOrderQty: '1190.000', minOrderQty: step, qtyStep: step, postOnlyMaxOrderQty: '1190.000',
      maxMktOrderQty: '500.000', minNotionalValue: '5',
    },
    unifiedMarginTrade: true, ...bybitFundingInterval(state.funding.get('bybit', unit.ticker)), settleCoin: 'USDT', copyTrading: 'both',
    upperFundingRate: '0.005', lowerFundingRate: '-0.005', isPreListing: false, preListingInfo: null,
  };
}

function instruments(req: RestRequest, state: MarketState): RestReply {
  const category = req.query.get('category');
  // Pre-launch contracts and further pages do not exist here: an empty list ends ccxt's paging.
  const empty = req.query.get('status') === 'PreLaunch' || req.query.has('cursor');
  if (category === 'spot') return envelope({ category, list: state.listed('bybit', 'SPOT').map((i) => withVenueStatus(state, 'bybit', STATUS, 'SPOT', i.ticker, spotInstrument(i))) });
  if (category === 'linear') return envelope({ category, list: empty ? [] : state.listed('bybit', 'FUTURES').map((i) => withVenueStatus(state, 'bybit', STATUS, 'FUTURES', i.ticker, linearInstrument(i, state))) });
  return envelope({ category, list: [] });
}

function tickerRow(unit: SimQuote, instrument: Instrument, state: MarketState): Record<string, unknown> {
  const q = venueQuote(LOTS, unit);
  const i = venueInstrument(LOTS, unit.market, instrument);
  const last = (q.bid + q.ask) / 2;
  const row: Record<string, unknown> = {
    symbol: idOf(q.ticker), bid1Price: formatStep(q.bid, i.tick), bid1Size: formatPlain(q.bidQty),
    ask1Price: formatStep(q.ask, i.tick), ask1Size: formatPlain(q.askQty), lastPrice: formatStep(last, i.tick),
    prevPrice24h: formatStep(last, i.tick), price24hPcnt: '0', highPrice24h: formatStep(last, i.tick),
    lowPrice24h: formatStep(last, i.tick), turnover24h: q.volume.toFixed(4),
    volume24h: (q.volume / last).toFixed(4), usdIndexPrice: formatStep(last, i.tick),
  };
  // ccxt tells linear tickers from spot ones by `fundingRate`.
  const funding = q.market === 'FUTURES' ? state.funding.get('bybit', unit.ticker) : undefined;
  if (funding) {
    const f = fundingFields(state, PERPETUALS, funding);
    Object.assign(row, { indexPrice: row.lastPrice, markPrice: f.mark, fundingRate: f.rate, nextFundingTime: f.next === null ? '' : String(f.next), openInterest: '1000', openInterestValue: '1000000' });
  }
  return row;
}

function tickers(req: RestRequest, state: MarketState): RestReply {
  const category = req.query.get('category') ?? 'spot';
  const market: Market | undefined = category === 'spot' ? 'SPOT' : category === 'linear' ? 'FUTURES' : undefined;
  const symbol = req.query.get('symbol');
  const list = market === undefined ? [] : state.list({ exchange: 'bybit', market })
    .filter((q) => !symbol || idOf(venueQuote(LOTS, q).ticker) === symbol)
    .flatMap((q) => {
      const i = state.instrument(q.ticker);
      return i ? [tickerRow(q, i, state)] : [];
    });
  return envelope({ category, list });
}

function chainRow(n: SimNetwork): Record<string, unknown> {
  return {
    chainType: n.network, confirmation: '12', withdrawFee: formatPlain(n.withdrawFee), depositMin: '0',
    withdrawMin: formatPlain(n.withdrawFee * 2), chain: n.network, chainDeposit: n.depositEnabled ? '1' : '0',
    chainWithdraw: n.withdrawEnabled ? '1' : '0', minAccuracy: '8', withdrawPercentageFee: '0', contractAddress: n.contract ?? '',
    safeConfirmNumber: '6',
  };
}

/**
 * Coin info with each chain's transfer state and withdrawal fee (PUT /_sim/networks); `coin`
 * narrows it to one. Without an API key bybit answers 401 with retCode 10003.
 */
function coinInfo(req: RestRequest, state: MarketState): RestReply {
  if (apiKeyOf(req, 'X-BAPI-API-KEY') === undefined) {
    return { status: 401, body: { retCode: 10003, retMsg: 'API key is invalid.', result: {}, retExtInfo: {}, time: Date.now() } };
  }
  const coin = req.query.get('coin')?.toUpperCase();
  const rows = [...state.networks.byAsset('bybit')]
    .filter(([asset]) => !coin || asset === coin)
    .map(([asset, networks]) => ({ name: asset, coin: asset, remainAmount: '1000000', chains: networks.map(chainRow) }));
  return envelope({ rows });
}

function marketOfPath(path: string): Market {
  return path.includes('/spot') ? 'SPOT' : 'FUTURES';
}

function onSubscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const market = marketOfPath(session.path);
  const subscribing = msg.op === 'subscribe';
  const resolved = stringList(msg.args).map((topic) => {
    const match = /^orderbook\.(\d+)\.(.+)$/.exec(topic);
    const depth = match?.[1] ?? '';
    const ticker = match?.[2] && (depth === '1' || DEPTHS.includes(depth)) ? listedTickerFromId(match[2], state, 'bybit', market, LOTS) : undefined;
    return { topic, ticker, depth: depth === '1' ? undefined : `orderbook.${depth}` };
  });
  const subs = resolved.flatMap(({ ticker, depth }) => (ticker ? [depth ? { market, ticker, depth } : { market, ticker }] : []));
  const unknown = subscribing ? resolved.find(({ ticker }) => ticker === undefined)?.topic : undefined;
  if (unknown !== undefined) {
    // Bybit refuses the whole request and names the topic it does not know.
    session.reply({ success: false, ret_msg: `Invalid symbol :[${unknown}]`, conn_id: 'sim', req_id: msg.req_id ?? '', op: msg.op });
    return;
  }
  for (const sub of subs) {
    if (subscribing) session.subscribe(sub);
    else session.unsubscribe(sub);
  }
  session.reply({ success: true, ret_msg: '', conn_id: 'sim', req_id: msg.req_id ?? '', op: msg.op });
  if (subscribing) for (const sub of subs) session.pushNow(sub);
}

/** The book depths bybit publishes beside level 1, on spot and linear alike. */
const DEPTHS = ['50', '200', '1000'];

/** `orderbook.<depth>.<id>`: the snapshot on subscribe, then deltas (`u` the update id, `seq` the cross sequence). */
function renderDepth(sub: Subscription, frame: DepthFrame, state: MarketState): string {
  const { quote, book, delta } = frame;
  const format = levelFormat(quote, state, LOTS);
  const depth = Number(sub.depth?.split('.')[1] ?? 50);
  const id = idOf(venueQuote(LOTS, quote).ticker);
  const now = Date.now();
  const changes = delta ? deltaWithin(delta, book, depth) : undefined;
  const data = delta && changes
    ? { s: id, b: rows(scaled(LOTS, quote, changes.bids), format), a: rows(scaled(LOTS, quote, changes.asks), format), u: delta.last, seq: delta.last }
    : { s: id, b: rows(scaled(LOTS, quote, book.bids), format, depth), a: rows(scaled(LOTS, quote, book.asks), format, depth), u: book.id, seq: book.id };
  return JSON.stringify({ topic: `${sub.depth ?? 'orderbook.50'}.${id}`, type: delta ? 'delta' : 'snapshot', ts: now, data, cts: now });
}

function onPing(session: WsSession, msg: Record<string, unknown>): void {
  if (marketOfPath(session.path) === 'SPOT') {
    session.reply({ success: true, ret_msg: 'pong', conn_id: 'sim', req_id: msg.req_id ?? '', op: 'ping' });
  } else {
    session.reply({ req_id: msg.req_id ?? '', op: 'pong', args: [String(Date.now())], conn_id: 'sim' });
  }
}

export const bybitProtocol: ExchangeProtocol = {
  name: 'bybit',
  ownsHost: (hostname) => hostname.endsWith('.bybit.com'),
  rest(req, state) {
    switch (req.path) {
      case '/v5/market/instruments-info':
        return instruments(req, state);
      case '/v5/market/tickers':
        return tickers(req, state);
      case '/v5/asset/coin/query-info':
        return coinInfo(req, state);
      case '/v5/market/funding/history':
        return bybitFundingHistory(req, state);
      case '/v5/market/time':
        return envelope({ timeSecond: String(Math.floor(Date.now() / 1000)), timeNano: `${Date.now()}000000` });
      default:
        return undefined;
    }
  },
  onMessage(session, text, state) {
    const msg = parseJsonObject(text);
    if (msg?.op === 'ping') onPing(session, msg);
    else if (msg?.op === 'subscribe' || msg?.op === 'unsubscribe') onSubscribe(session, msg, state);
    else session.reply({ success: false, ret_msg: 'Invalid request', conn_id: 'sim', op: msg?.op ?? '' });
  },
  renderDepth,
  render(unit, state) {
    const i = state.instrument(unit.ticker);
    const tick = i ? venueInstrument(LOTS, unit.market, i).tick : 1e-8;
    const q = venueQuote(LOTS, unit);
    const id = idOf(q.ticker);
    return JSON.stringify({
      topic: `orderbook.1.${id}`, type: 'snapshot', ts: q.updatedAt,
      data: { s: id, b: [[formatStep(q.bid, tick), formatPlain(q.bidQty)]], a: [[formatStep(q.ask, tick), formatPlain(q.askQty)]], u: q.seq, seq: q.seq },
      cts: q.updatedAt,
    });
  },
};
