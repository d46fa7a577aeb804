import type { Market } from '../../../market-model/exchanges.js';
import { decimalsOf, formatPlain, formatStep, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import {
  objectList, ok, parseJsonObject, tickerFromId,
  type DepthFrame, type ExchangeProtocol, type RestReply, type RestRequest, type Subscription, type WsSession,
} from '../protocol.js';
import { NO_LOTS } from '../lots.js';
import { bookChecksum, levelFormat, rows } from '../depth-levels.js';
import { fundingFields, fundingRows } from '../funding-rest.js';
import { PERPETUALS, bitgetCurrentFundRate, bitgetFundingHistory } from './funding.js';
import { withVenueStatus } from '../venue-status.js';
import { STATUS } from './listing.js';

/**
 * Bitget v2: REST on api.bitget.com/api/v2 (spot, mix with productType USDT-FUTURES), one public
 * websocket ws.bitget.com/v2/ws/public for both; bid/ask is the `ticker` channel (ccxt's
 * watchBidsAsks reads bidPr/askPr/bidSz/askSz from it), depth `books` and `books1|5|15|50`. Keepalive is text `ping` → `pong`.
 */
const PERP_INST_TYPE = 'USDT-FUTURES';

const idOf = (ticker: string): string => ticker.replace('-', '');

function envelope(data: unknown): RestReply {
  return ok({ code: '00000', msg: 'success', requestTime: Date.now(), data });
}

function spotSymbol(i: Instrument): Record<string, unknown> {
  return {
    symbol: idOf(i.ticker), baseCoin: i.base, quoteCoin: i.quote, minTradeAmount: '0', maxTradeAmount: '10000000000',
    takerFeeRate: '0.001', makerFeeRate: '0.001', pricePrecision: String(decimalsOf(i.tick)),
    quantityPrecision: String(decimalsOf(i.lotStep)), quotePrecision: '8', status: 'online', minTradeUSDT: '1',
    buyLimitPriceRatio: '0.05', sellLimitPriceRatio: '0.05', areaSymbol: 'no', orderQuantity: '200',
    openTime: '1532454360000', offTime: '',
  };
}

function contract(i: Instrument, state: MarketState): Record<string, unknown> {
  const hours = state.funding.get('bitget', i.ticker)?.intervalHours;
  return {
    symbol: idOf(i.ticker), baseCoin: i.base, quoteCoin: i.quote, buyLimitPriceRatio: '0.05',
    sellLimitPriceRatio: '0.05', feeRateUpRatio: '0.005', makerFeeRate: '0.0002', takerFeeRate: '0.0006',
    openCostUpRatio: '0.01', supportMarginCoins: ['USDT'], minTradeNum: formatPlain(i.lotStep),
    priceEndStep: '1', volumePlace: String(decimalsOf(i.lotStep)), pricePlace: String(decimalsOf(i.tick)),
    sizeMultiplier: formatPlain(i.lotStep), symbolType: 'perpetual', minTradeUSDT: '5', maxSymbolOrderNum: '200',
    maxProductOrderNum: '400', maxPositionNum: '150', symbolStatus: 'normal', offTime: '-1', limitOpenTime: '-1',
    deliveryTime: '', deliveryStartTime: '', deliveryPeriod: '', launchTime: '', fundInterval: hours == null ? '' : String(hours),
    minLever: '1', maxLever: '125', posLimit: '0.05', maintainTime: '',
  };
}

function tickerRow(q: SimQuote, i: Instrument, state: MarketState): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  const row: Record<string, unknown> = {
    symbol: idOf(q.ticker), lastPr: last, open: last, open24h: last, high24h: last, low24h: last,
    bidPr: formatStep(q.bid, i.tick), askPr: formatStep(q.ask, i.tick), bidSz: formatPlain(q.bidQty),
    askSz: formatPlain(q.askQty), baseVolume: (q.volume / Number(last)).toFixed(6),
    quoteVolume: q.volume.toFixed(2), usdtVolume: q.volume.toFixed(2), openUtc: last, changeUtc24h: '0',
    change24h: '0', ts: String(Date.now()),
  };
  // ccxt tells contract tickers from spot ones by `markPrice`.
  const funding = q.market === 'FUTURES' ? state.funding.get('bitget', q.ticker) : undefined;
  if (funding) {
    const f = fundingFields(state, PERPETUALS, funding);
    Object.assign(row, { indexPrice: last, markPrice: f.mark, fundingRate: f.rate, holdingAmount: '1000' });
  }
  return row;
}

function tickers(state: MarketState, market: Market): RestReply {
  return envelope(state.list({ exchange: 'bitget', market }).flatMap((q) => {
    const i = state.instrument(q.ticker);
    return i ? [tickerRow(q, i, state)] : [];
  }));
}

/** Public coin list with each chain's transfer state and withdrawal fee (PUT /_sim/networks). */
function coins(state: MarketState): Record<string, unknown>[] {
  return [...state.networks.byAsset('bitget')].map(([asset, networks], i) => ({
    coinId: String(i + 1), coin: asset, transfer: 'true',
    chains: networks.map((n) => ({
      chain: n.network, needTag: 'false', withdrawable: String(n.withdrawEnabled), rechargeable: String(n.depositEnabled),
      withdrawFee: String(n.withdrawFee), extraWithdrawFee: '0', depositConfirm: '12', withdrawConfirm: '64',
      minDepositAmount: '0', minWithdrawAmount: '0', browserUrl: '', contractAddress: n.contract ?? '', withdrawStep: '0',
      withdrawMinScale: '8', congestion: 'normal',
    })),
  }));
}

function rest(req: RestRequest, state: MarketState): RestReply | undefined {
  const usdtPerps = req.query.get('productType')?.toUpperCase() === PERP_INST_TYPE;
  switch (req.path) {
    case '/api/v2/spot/public/symbols':
      return envelope(state.listed('bitget', 'SPOT').map((i) => withVenueStatus(state, 'bitget', STATUS, 'SPOT', i.ticker, spotSymbol(i))));
    case '/api/v2/margin/currencies':
      return envelope([]);
    case '/api/v2/spot/public/coins':
      return envelope(coins(state));
    case '/api/v2/mix/market/contracts':
      return envelope(usdtPerps ? state.listed('bitget', 'FUTURES').map((i) => withVenueStatus(state, 'bitget', STATUS, 'FUTURES', i.ticker, contract(i, state))) : []);
    case '/api/v2/spot/market/tickers':
      return tickers(state, 'SPOT');
    case '/api/v2/mix/market/tickers':
      return usdtPerps ? tickers(state, 'FUTURES') : envelope([]);
    case '/api/v2/mix/market/history-fund-rate':
      return bitgetFundingHistory(req, state);
    case '/api/v2/mix/market/current-fund-rate':
      return envelope(usdtPerps ? fundingRows(state, PERPETUALS, req.query.get('symbol')).map(bitgetCurrentFundRate) : []);
    case '/api/v2/public/time':
      return envelope({ serverTime: String(Date.now()) });
    default:
      return undefined;
  }
}

/** Depth channels: `books` (full book, snapshot then updates with a checksum), `books1|5|15|50` (snapshot each push). */
const DEPTH_CHANNELS: Readonly<Record<string, number>> = { books: Number.POSITIVE_INFINITY, books1: 1, books5: 5, books15: 15, books50: 50 };

function subscriptionOf(arg: Record<string, unknown>, state: MarketState): Subscription | undefined {
  const channel = typeof arg.channel === 'string' ? arg.channel : '';
  if ((channel !== 'ticker' && !(channel in DEPTH_CHANNELS)) || typeof arg.instId !== 'string') return undefined;
  const instType = typeof arg.instType === 'string' ? arg.instType.toUpperCase() : '';
  const market: Market | undefined = instType === 'SPOT' ? 'SPOT' : instType === PERP_INST_TYPE ? 'FUTURES' : undefined;
  const ticker = tickerFromId(arg.instId, state, NO_LOTS);
  if (!market || !ticker || !state.isListed('bitget', market, ticker)) return undefined;
  return channel === 'ticker' ? { market, ticker } : { market, ticker, depth: channel };
}

function renderDepth(sub: Subscription, frame: DepthFrame, state: MarketState): string {
  const { quote, book, delta } = frame;
  const format = levelFormat(quote, state, NO_LOTS);
  const channel = sub.depth ?? 'books';
  const bids = rows(book.bids, format, DEPTH_CHANNELS[channel]);
  const asks = rows(book.asks, format, DEPTH_CHANNELS[channel]);
  const arg = { instType: sub.market === 'SPOT' ? 'SPOT' : PERP_INST_TYPE, channel, instId: idOf(quote.ticker) };
  const ts = Date.now();
  const incremental = channel === 'books' && delta !== undefined;
  const data = incremental
    ? { asks: rows(delta.asks, format), bids: rows(delta.bids, format), checksum: bookChecksum(bids, asks), seq: delta.last, ts: String(ts) }
    : { asks, bids, checksum: channel === 'books' ? bookChecksum(bids, asks) : 0, seq: book.id, ts: String(ts) };
  return JSON.stringify({ action: incremental ? 'update' : 'snapshot', arg, data: [data], ts });
}

function onSubscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const subscribing = msg.op === 'subscribe';
  for (const arg of objectList(msg.args)) {
    const sub = subscriptionOf(arg, state);
    if (!sub) {
      session.reply({ event: 'error', arg, code: 30001, msg: `instType:${String(arg.instType)},channel:${String(arg.channel)},instId:${String(arg.instId)} doesn't exist` });
      continue;
    }
    if (subscribing) session.subscribe(sub);
    else session.unsubscribe(sub);
    session.reply({ event: msg.op, arg: { instType: arg.instType, channel: arg.channel, instId: arg.instId } });
    if (subscribing) session.pushNow(sub);
  }
}

export const bitgetProtocol: ExchangeProtocol = {
  name: 'bitget',
  ownsHost: (hostname) => hostname.endsWith('bitget.com'),
  rest,
  onMessage(session, text, state) {
    if (text === 'ping') {
      session.reply('pong');
      return;
    }
    const msg = parseJsonObject(text);
    if (msg?.op === 'subscribe' || msg?.op === 'unsubscribe') onSubscribe(session, msg, state);
    else session.reply({ event: 'error', code: 30016, msg: 'param error' });
  },
  renderDepth,
  render(q, state) {
    const i = state.instrument(q.ticker);
    if (!i) return '{}';
    const instType = q.market === 'SPOT' ? 'SPOT' : PERP_INST_TYPE;
    const { symbol: _symbol, ...fields } = tickerRow(q, i, state);
    const row = { instId: idOf(q.ticker), ...fields, ts: String(q.updatedAt) };
    return JSON.stringify({ action: 'snapshot', arg: { instType, channel: 'ticker', instId: idOf(q.ticker) }, data: [row], ts: q.updatedAt });
  },
};
