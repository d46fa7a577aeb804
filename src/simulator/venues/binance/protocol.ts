import type { Market } from '../../../market-model/exchanges.js';
import { formatPlain, formatStep, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import type { SimNetwork } from '../../network-state.js';
import {
  apiKeyOf, baseOf, ok, parseJsonObject, stringList, tickerFromId,
  type DepthFrame, type ExchangeProtocol, type RestReply, type RestRequest, type Subscription, type WsSession,
} from '../protocol.js';
import { levelFormat, rows, scaled } from '../depth-levels.js';
import { fundingRows } from '../funding-rest.js';
import { PERPETUALS, binanceFundingInfo, binancePremiumIndex, binanceFundingHistory } from './funding.js';
import { venueInstrument, venueQuote } from '../lots.js';
import { withVenueStatus } from '../venue-status.js';
import { LOTS, STATUS } from './listing.js';

/**
 * Binance: spot REST on api.binance.com (/api/v3), USDT-M futures on fapi.binance.com (/fapi/v1);
 * websockets stream.binance.com (spot) and fstream.binance.com (futures, `/public/ws` for
 * bookTicker). Keepalive is the websocket protocol ping, answered by the hub. Networks come from
 * the signed wallet call /sapi/v1/capital/config/getall (API key in `X-MBX-APIKEY`).
 */
const FUTURES_HOST = 'fapi.binance.com';

function marketOfHost(host: string): Market {
  return host.startsWith('fapi.') || host.startsWith('fstream.') ? 'FUTURES' : 'SPOT';
}

const idOf = (ticker: string): string => ticker.replace('-', '');

function filters(i: Instrument, market: Market): Record<string, string>[] {
  const tick = formatStep(i.tick, i.tick);
  const step = formatPlain(i.lotStep);
  const notional: Record<string, string> = market === 'SPOT'
    ? { filterType: 'NOTIONAL', minNotional: '5.00000000', maxNotional: '9000000.00000000', avgPriceMins: '5' }
    : { filterType: 'MIN_NOTIONAL', notional: '5' };
  return [
    { filterType: 'PRICE_FILTER', minPrice: tick, maxPrice: '10000000', tickSize: tick },
    { filterType: 'LOT_SIZE', minQty: step, maxQty: '9000000', stepSize: step },
    { filterType: 'MARKET_LOT_SIZE', minQty: step, maxQty: '1000000', stepSize: step },
    notional,
  ];
}

function spotSymbol(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), status: 'TRADING', baseAsset: i.base, baseAssetPrecision: 8,
    quoteAsset: i.quote, quotePrecision: 8, quoteAssetPrecision: 8, baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8, orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
    icebergAllowed: true, ocoAllowed: true, otoAllowed: true, quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: true, cancelReplaceAllowed: true, isSpotTradingAllowed: true,
    isMarginTradingAllowed: true, filters: filters(i, 'SPOT'), permissions: [],
    permissionSets: [['SPOT', 'MARGIN']], defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
    allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
  };
}

function futuresSymbol(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), pair: idOf(i.ticker), contractType: 'PERPETUAL', deliveryDate: 4133404800000,
    onboardDate: 1569398400000, status: 'TRADING', maintMarginPercent: '2.5000', requiredMarginPercent: '5.0000',
    baseAsset: i.base, quoteAsset: i.quote, marginAsset: 'USDT', pricePrecision: 8,
    quantityPrecision: 8, baseAssetPrecision: 8, quotePrecision: 8, underlyingType: 'COIN',
    underlyingSubType: ['Layer-1'], triggerProtect: '0.0500', liquidationFee: '0.012500',
    marketTakeBound: '0.05', maxMoveOrderLimit: 10000, filters: filters(i, 'FUTURES'),
    orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'], permissionSets: ['GRID', 'COPY'],
  };
}

function ticker24h(q: SimQuote, i: Instrument): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  const baseVolume = formatPlain(Number((q.volume / Number(last)).toFixed(4)));
  const closeTime = Date.now();
  const common = {
    symbol: idOf(q.ticker), priceChange: '0', priceChangePercent: '0.000', weightedAvgPrice: last,
    lastPrice: last, lastQty: formatPlain(i.lotStep), openPrice: last, highPrice: last, lowPrice: last,
    volume: baseVolume, quoteVolume: formatPlain(Number(q.volume.toFixed(2))),
    openTime: closeTime - 86_400_000, closeTime, firstId: 1, lastId: 100_000, count: 100_000,
  };
  // Futures 24 h tickers carry no book fields; ccxt tells spot from futures by `bidQty`.
  if (q.market === 'FUTURES') return common;
  return {
    ...common, prevClosePrice: last, bidPrice: formatStep(q.bid, i.tick), bidQty: formatPlain(q.bidQty),
    askPrice: formatStep(q.ask, i.tick), askQty: formatPlain(q.askQty),
  };
}

function tickers(req: RestRequest, state: MarketState, market: Market): RestReply {
  const wanted = new Set([...stringList(safeJson(req.query.get('symbols'))), req.query.get('symbol') ?? ''].filter(Boolean));
  const rows = state.list({ exchange: 'binance', market })
    .flatMap((q) => {
      const i = state.instrument(q.ticker);
      const v = venueQuote(LOTS, q);
      return i && (wanted.size === 0 || wanted.has(idOf(v.ticker))) ? [ticker24h(v, venueInstrument(LOTS, market, i))] : [];
    });
  return ok(req.query.get('symbol') ? rows[0] : rows);
}

function safeJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function exchangeInfo(state: MarketState, market: Market): RestReply {
  const build = market === 'SPOT' ? spotSymbol : futuresSymbol;
  return ok({ timezone: 'UTC', serverTime: Date.now(), rateLimits: [], exchangeFilters: [], symbols: state.listed('binance', market).map((i) => withVenueStatus(state, 'binance', STATUS, market, i.ticker, build(venueInstrument(LOTS, market, i)))) });
}

function networkEntry(n: SimNetwork, index: number): Record<string, unknown> {
  return {
    network: n.network, coin: n.asset, withdrawIntegerMultiple: '0.00000001', isDefault: index === 0,
    depositEnable: n.depositEnabled, withdrawEnable: n.withdrawEnabled,
    depositDesc: n.depositEnabled ? '' : 'Wallet Maintenance, Deposit Suspended',
    withdrawDesc: n.withdrawEnabled ? '' : 'Wallet Maintenance, Withdrawal Suspended',
    specialTips: '', specialWithdrawTips: '', name: n.network, resetAddressStatus: false, addressRegex: '',
    addressRule: '', memoRegex: '', withdrawFee: formatPlain(n.withdrawFee), withdrawMin: formatPlain(n.withdrawFee * 2),
    withdrawMax: '9999999999.99999999', withdrawInternalMin: '0.00000001', depositDust: '0.00000001', minConfirm: '12',
    unLockConfirm: '0', sameAddress: false, estimatedArrivalTime: 5, busy: false, contractAddressUrl: '', contractAddress: n.contract ?? '',
  };
}

/**
 * The wallet's coin list with each network's transfer state and withdrawal fee (PUT /_sim/networks).
 * Without an API key binance answers 401 with code -2014, as for a malformed key.
 */
function capitalConfig(req: RestRequest, state: MarketState): RestReply {
  if (apiKeyOf(req, 'X-MBX-APIKEY') === undefined) return { status: 401, body: { code: -2014, msg: 'API-key format invalid.' } };
  return ok([...state.networks.byAsset('binance')].map(([asset, networks]) => ({
    coin: asset, depositAllEnable: networks.some((n) => n.depositEnabled), withdrawAllEnable: networks.some((n) => n.withdrawEnabled),
    name: asset, free: '0', locked: '0', freeze: '0', withdrawing: '0', ipoing: '0', ipoable: '0', storage: '0',
    isLegalMoney: false, trading: true, networkList: networks.map(networkEntry),
  })));
}

/** Depth streams: diff `depth[@100ms]` (with the REST snapshot) and partial `depth<5|10|20>[@100ms]`. */
const DEPTH_STREAM = /^depth(5|10|20)?(@100ms|@250ms|@500ms)?$/;

function subscriptionOf(param: string, market: Market, state: MarketState): Subscription | undefined {
  const [id = '', channel = '', speed] = param.split('@');
  const stream = speed === undefined ? channel : `${channel}@${speed}`;
  const ticker = tickerFromId(id, state, LOTS);
  if (!ticker) return undefined;
  if (stream === 'bookTicker') return { market, ticker };
  return DEPTH_STREAM.test(stream) ? { market, ticker, depth: stream } : undefined;
}

function subscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const market = marketOfHost(session.host);
  const subs = stringList(msg.params).flatMap((param) => subscriptionOf(param, market, state) ?? []);
  for (const sub of subs) {
    if (msg.method === 'SUBSCRIBE') session.subscribe(sub);
    else session.unsubscribe(sub);
  }
  session.reply({ result: null, id: msg.id ?? null });
  if (msg.method === 'SUBSCRIBE') for (const sub of subs) session.pushNow(sub);
}

/** REST depth snapshot (`/api/v3/depth`, `/fapi/v1/depth`): top `limit` levels and the update id diffs continue from. */
function depthSnapshot(req: RestRequest, state: MarketState, market: Market): RestReply {
  const ticker = tickerFromId(req.query.get('symbol') ?? '', state, LOTS);
  const quote = ticker ? state.get('binance', market, ticker) : undefined;
  const book = quote ? state.book(quote) : undefined;
  if (!quote || !book) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  const limit = Math.min(Number(req.query.get('limit') ?? (market === 'SPOT' ? 100 : 500)) || 100, market === 'SPOT' ? 5000 : 1000);
  const format = levelFormat(quote, state, LOTS);
  const sides = { lastUpdateId: book.id, bids: rows(scaled(LOTS, quote, book.bids), format, limit), asks: rows(scaled(LOTS, quote, book.asks), format, limit) };
  const now = Date.now();
  return ok(market === 'SPOT' ? sides : { ...sides, E: now, T: now });
}

function renderDepth(sub: Subscription, frame: DepthFrame, state: MarketState): string | undefined {
  const { quote, book, delta } = frame;
  const format = levelFormat(quote, state, LOTS);
  const partial = DEPTH_STREAM.exec(sub.depth ?? '')?.[1];
  const s = idOf(venueQuote(LOTS, quote).ticker);
  const now = Date.now();
  if (partial !== undefined) {
    const bids = rows(scaled(LOTS, quote, book.bids), format, Number(partial));
    const asks = rows(scaled(LOTS, quote, book.asks), format, Number(partial));
    // Spot partial depth is the bare top of book; usd-m futures send it as a depthUpdate event.
    return JSON.stringify(sub.market === 'SPOT'
      ? { lastUpdateId: book.id, bids, asks }
      : { e: 'depthUpdate', E: now, T: now, s, U: delta?.first ?? book.id, u: book.id, pu: (delta?.first ?? book.id) - 1, b: bids, a: asks });
  }
  if (!delta) return undefined;
  const body = { e: 'depthUpdate', E: now, s, U: delta.first, u: delta.last, b: rows(scaled(LOTS, quote, delta.bids), format), a: rows(scaled(LOTS, quote, delta.asks), format) };
  return JSON.stringify(sub.market === 'SPOT' ? body : { ...body, T: now, pu: delta.first - 1 });
}

export const binanceProtocol: ExchangeProtocol = {
  name: 'binance',
  ownsHost: (hostname) => hostname.endsWith('.binance.com'),
  rest(req, state) {
    const market = req.host.startsWith(FUTURES_HOST) ? 'FUTURES' : 'SPOT';
    switch (req.path) {
      case '/api/v3/exchangeInfo':
      case '/fapi/v1/exchangeInfo':
        return exchangeInfo(state, market);
      case '/api/v3/ticker/24hr':
      case '/fapi/v1/ticker/24hr':
        return tickers(req, state, market);
      case '/fapi/v1/premiumIndex': {
        const rows = fundingRows(state, PERPETUALS, req.query.get('symbol')).map(binancePremiumIndex);
        return ok(req.query.get('symbol') ? rows[0] : rows);
      }
      case '/sapi/v1/capital/config/getall':
        return capitalConfig(req, state);
      case '/fapi/v1/fundingInfo':
        return ok(binanceFundingInfo(fundingRows(state, PERPETUALS)));
      case '/api/v3/depth':
      case '/fapi/v1/depth':
        return depthSnapshot(req, state, market);
      case '/fapi/v1/fundingRate':
        return binanceFundingHistory(req, state);
      case '/api/v3/ping':
      case '/fapi/v1/ping':
        return ok({});
      case '/api/v3/time':
      case '/fapi/v1/time':
        return ok({ serverTime: Date.now() });
      default:
        return undefined;
    }
  },
  onMessage(session, text, state) {
    const msg = parseJsonObject(text);
    if (msg && (msg.method === 'SUBSCRIBE' || msg.method === 'UNSUBSCRIBE')) subscribe(session, msg, state);
    else if (msg) session.reply({ code: 2, msg: 'Invalid request: unknown method', id: msg.id ?? null });
  },
  renderDepth,
  render(unit, state) {
    const i = state.instrument(unit.ticker);
    const tick = i ? venueInstrument(LOTS, unit.market, i).tick : 1e-8;
    const q = venueQuote(LOTS, unit);
    const body = {
      u: q.seq, s: `${baseOf(q.ticker)}USDT`, b: formatStep(q.bid, tick), B: formatPlain(q.bidQty),
      a: formatStep(q.ask, tick), A: formatPlain(q.askQty),
    };
    return JSON.stringify(q.market === 'FUTURES' ? { e: 'bookTicker', ...body, E: q.updatedAt, T: q.updatedAt } : body);
  },
};
