import type { Market } from '../../../market-model/exchanges.js';
import { formatPlain, formatStep, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import {
  ok, parseJsonObject, stringList, tickerFromId,
  type DepthFrame, type ExchangeProtocol, type RestReply, type RestRequest, type Subscription, type WsSession,
} from '../protocol.js';
import { levelFormat, rows, scaled } from '../depth-levels.js';
import { fundingRows } from '../funding-rest.js';
import { venueInstrument, venueQuote } from '../lots.js';
import { withVenueStatus } from '../venue-status.js';
import { PERPETUALS, asterFundingHistory, asterFundingInfo, asterPremiumIndex } from './funding.js';
import { LOTS, STATUS } from './listing.js';

/**
 * Aster: spot REST on sapi.asterdex.com (/api/v3), perpetuals on fapi.asterdex.com (/fapi/v3);
 * public websockets sstream.asterdex.com/stream (spot) and fstream.asterdex.com/stream
 * (perpetuals), combined streams: live SUBSCRIBE / UNSUBSCRIBE, every push wrapped as
 * `{stream, data}`. Keepalive is the websocket protocol ping, answered by the hub. Its currency
 * list (spot exchangeInfo `assets`) names no networks.
 */
function marketOfHost(host: string): Market {
  return host.startsWith('fapi.') || host.startsWith('fstream.') ? 'FUTURES' : 'SPOT';
}

const idOf = (ticker: string): string => ticker.replace('-', '');

function filters(i: Instrument, market: Market): Record<string, unknown>[] {
  const tick = formatStep(i.tick, i.tick);
  const step = formatPlain(i.lotStep);
  const notional = market === 'SPOT'
    ? [{ filterType: 'NOTIONAL', minNotional: '5', avgPriceMins: '5', applyMinToMarket: true, applyMaxToMarket: true }]
    : [{ filterType: 'MIN_NOTIONAL', notional: '5' }];
  return [
    { filterType: 'PRICE_FILTER', minPrice: tick, maxPrice: '1000000', tickSize: tick },
    { filterType: 'LOT_SIZE', minQty: step, maxQty: '9000000', stepSize: step },
    { filterType: 'MARKET_LOT_SIZE', minQty: step, maxQty: '1000000', stepSize: step },
    { filterType: 'MAX_NUM_ORDERS', limit: '200' },
    ...notional,
    { filterType: 'PERCENT_PRICE', multiplierUp: '5', multiplierDown: '0.2', multiplierDecimal: '1' },
  ];
}

function spotSymbol(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), status: 'TRADING', baseAsset: i.base, quoteAsset: i.quote, pricePrecision: 8,
    quantityPrecision: 8, baseAssetPrecision: 8, quotePrecision: 8, listingTime: 1756289680210, baseAssetAddress: null,
    ocoAllowed: false, filters: filters(i, 'SPOT'), orderTypes: ['LIMIT', 'MARKET', 'STOP', 'TAKE_PROFIT', 'STOP_MARKET', 'TAKE_PROFIT_MARKET'],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
  };
}

function futuresSymbol(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), pair: idOf(i.ticker), contractType: 'PERPETUAL', deliveryDate: 4133404800000,
    onboardDate: 1758178800000, status: 'TRADING', maintMarginPercent: '2.5000', requiredMarginPercent: '5.0000',
    baseAsset: i.base, quoteAsset: i.quote, marginAsset: 'USDT', pricePrecision: 8, quantityPrecision: 8,
    baseAssetPrecision: 8, quotePrecision: 8, underlyingType: 'COIN', underlyingSubType: ['Layer-1'],
    triggerProtect: '0.0500', liquidationFee: '0.012500', marketTakeBound: '0.05', filters: filters(i, 'FUTURES'),
    orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'HIDDEN'],
  };
}

function exchangeInfo(state: MarketState, market: Market): RestReply {
  const build = market === 'SPOT' ? spotSymbol : futuresSymbol;
  const symbols = state.listed('aster', market).map((i) => withVenueStatus(state, 'aster', STATUS, market, i.ticker, build(venueInstrument(LOTS, market, i))));
  const assets = [...new Set(symbols.flatMap((s) => [String(s.baseAsset), String(s.quoteAsset)]))].map((asset) => ({ asset }));
  return ok({ timezone: 'UTC', serverTime: Date.now(), rateLimits: [], exchangeFilters: [], assets, symbols });
}

function ticker24h(q: SimQuote, i: Instrument): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  const closeTime = Date.now();
  const common = {
    symbol: idOf(q.ticker), priceChange: '0', priceChangePercent: '0.000', weightedAvgPrice: last, lastPrice: last,
    lastQty: formatPlain(i.lotStep), openPrice: last, highPrice: last, lowPrice: last,
    volume: formatPlain(Number((q.volume / Number(last)).toFixed(4))), quoteVolume: formatPlain(Number(q.volume.toFixed(2))),
    openTime: closeTime - 86_400_000, closeTime, firstId: 1, lastId: 100_000, count: 100_000,
  };
  // ccxt tells a spot row from a perpetual one by `baseAsset`, which only spot rows carry.
  if (q.market === 'FUTURES') return common;
  return {
    ...common, baseAsset: i.base, quoteAsset: i.quote, bidPrice: formatStep(q.bid, i.tick), bidQty: formatPlain(q.bidQty),
    askPrice: formatStep(q.ask, i.tick), askQty: formatPlain(q.askQty),
  };
}

function tickers(req: RestRequest, state: MarketState, market: Market): RestReply {
  const only = req.query.get('symbol');
  const found = state.list({ exchange: 'aster', market }).flatMap((q) => {
    const i = state.instrument(q.ticker);
    const v = venueQuote(LOTS, q);
    return i && (!only || only === idOf(v.ticker)) ? [ticker24h(v, venueInstrument(LOTS, market, i))] : [];
  });
  if (only && found.length === 0) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  return ok(only ? found[0] : found);
}

/** REST depth snapshot (`/api/v3/depth`, `/fapi/v3/depth`): the top `limit` levels. */
function depthSnapshot(req: RestRequest, state: MarketState, market: Market): RestReply {
  const ticker = tickerFromId(req.query.get('symbol') ?? '', state, LOTS);
  const quote = ticker ? state.get('aster', market, ticker) : undefined;
  const book = quote ? state.book(quote) : undefined;
  if (!quote || !book) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  const limit = Math.min(Number(req.query.get('limit') ?? 100) || 100, 1000);
  const format = levelFormat(quote, state, LOTS);
  const now = Date.now();
  return ok({ lastUpdateId: book.id, E: now, T: now, bids: rows(scaled(LOTS, quote, book.bids), format, limit), asks: rows(scaled(LOTS, quote, book.asks), format, limit) });
}

/** Partial book streams `<id>@depth<5|10|20>[@100ms|@500ms]`, a full snapshot of the top levels each push. */
const DEPTH_STREAM = /^depth(5|10|20)(@100ms|@500ms)?$/;

function subscriptionOf(param: string, market: Market, state: MarketState): Subscription | undefined {
  const at = param.indexOf('@');
  const ticker = at > 0 ? tickerFromId(param.slice(0, at), state, LOTS) : undefined;
  const stream = param.slice(at + 1);
  if (!ticker || at < 0) return undefined;
  if (stream === 'bookTicker') return { market, ticker };
  return DEPTH_STREAM.test(stream) ? { market, ticker, depth: stream } : undefined;
}

function subscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const market = marketOfHost(session.host);
  const params = stringList(msg.params);
  const subs = params.map((param) => subscriptionOf(param, market, state));
  const unknown = params.filter((_, n) => subs[n] === undefined);
  if (unknown.length > 0 || !Array.isArray(msg.params)) {
    session.reply({ error: { code: 2, msg: `Invalid request: unknown stream ${unknown[0] ?? ''}`.trim() }, id: msg.id ?? null });
    return;
  }
  const valid = subs.filter((s): s is Subscription => s !== undefined);
  for (const sub of valid) {
    if (msg.method === 'SUBSCRIBE') session.subscribe(sub);
    else session.unsubscribe(sub);
  }
  session.reply({ result: null, id: msg.id ?? null });
  if (msg.method === 'SUBSCRIBE') for (const sub of valid) session.pushNow(sub);
}

const streamOf = (ticker: string, channel: string): string => `${idOf(ticker).toLowerCase()}@${channel}`;

function renderDepth(sub: Subscription, frame: DepthFrame, state: MarketState): string | undefined {
  const { quote, book, delta } = frame;
  const levels = Number(DEPTH_STREAM.exec(sub.depth ?? '')?.[1] ?? 20);
  const format = levelFormat(quote, state, LOTS);
  const now = Date.now();
  const data = {
    e: 'depthUpdate', E: now, T: now, s: idOf(venueQuote(LOTS, quote).ticker), U: delta?.first ?? book.id, u: book.id,
    pu: (delta?.first ?? book.id) - 1,
    b: rows(scaled(LOTS, quote, book.bids), format, levels), a: rows(scaled(LOTS, quote, book.asks), format, levels),
  };
  return JSON.stringify({ stream: streamOf(quote.ticker, sub.depth ?? 'depth20'), data });
}

export const asterProtocol: ExchangeProtocol = {
  name: 'aster',
  ownsHost: (hostname) => hostname.endsWith('.asterdex.com'),
  rest(req, state) {
    const market = marketOfHost(req.host);
    switch (req.path) {
      case '/api/v3/exchangeInfo':
      case '/fapi/v3/exchangeInfo':
        return exchangeInfo(state, market);
      case '/api/v3/ticker/24hr':
      case '/fapi/v3/ticker/24hr':
        return tickers(req, state, market);
      case '/fapi/v3/premiumIndex': {
        const found = fundingRows(state, PERPETUALS, req.query.get('symbol')).map(asterPremiumIndex);
        return ok(req.query.get('symbol') ? found[0] : found);
      }
      case '/fapi/v3/fundingInfo':
        return ok(asterFundingInfo(fundingRows(state, PERPETUALS)));
      case '/fapi/v3/fundingRate':
        return asterFundingHistory(req, state);
      case '/api/v3/depth':
      case '/fapi/v3/depth':
        return depthSnapshot(req, state, market);
      case '/api/v3/ping':
      case '/fapi/v3/ping':
        return ok({});
      case '/api/v3/time':
      case '/fapi/v3/time':
        return ok({ serverTime: Date.now() });
      default:
        return undefined;
    }
  },
  onMessage(session, text, state) {
    const msg = parseJsonObject(text);
    if (msg && (msg.method === 'SUBSCRIBE' || msg.method === 'UNSUBSCRIBE')) subscribe(session, msg, state);
    else if (msg && msg.method === 'LIST_SUBSCRIPTIONS') session.reply({ result: [], id: msg.id ?? null });
    else session.reply({ error: { code: 3, msg: 'Invalid JSON: expected a request object with a method' }, id: msg?.id ?? null });
  },
  renderDepth,
  render(unit, state) {
    const i = state.instrument(unit.ticker);
    const tick = i ? venueInstrument(LOTS, unit.market, i).tick : 1e-8;
    const q = venueQuote(LOTS, unit);
    const data = {
      e: 'bookTicker', u: q.seq, s: idOf(q.ticker), b: formatStep(q.bid, tick), B: formatPlain(q.bidQty),
      a: formatStep(q.ask, tick), A: formatPlain(q.askQty), T: q.updatedAt, E: q.updatedAt,
    };
    return JSON.stringify({ stream: streamOf(q.ticker, 'bookTicker'), data });
  },
};
