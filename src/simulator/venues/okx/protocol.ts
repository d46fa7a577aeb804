import type { Market } from '../../../market-model/exchanges.js';
import { contractSizeFor, formatPlain, formatStep, toContracts, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import type { SimNetwork } from '../../network-state.js';
import {
  apiKeyOf, objectList, ok, parseJsonObject,
  type ExchangeProtocol, type RestReply, type RestRequest, type Subscription, type WsSession,
} from '../protocol.js';
import { fundingRows } from '../funding-rest.js';
import { PERPETUALS, okxFundingRate, okxMarkPrice, okxFundingHistory } from './funding.js';
import { OKX_DEPTH_CHANNELS, renderOkxDepth } from './depth.js';
import { withVenueStatus } from '../venue-status.js';
import { STATUS } from './listing.js';

/**
 * OKX v5: REST on www.okx.com/api/v5, websockets on ws.okx.com:8443/ws/v5/public. Spot ids are
 * `BTC-USDT`, perpetuals `BTC-USDT-SWAP`, traded in contracts of `ctVal` base units (book sizes
 * are contracts too). Bid/ask is the `bbo-tbt` channel, depth `books` and `books5` (depth.ts); keepalive is text `ping` → `pong`.
 * Networks come from the signed /api/v5/asset/currencies (API key in `OK-ACCESS-KEY`).
 */
const CONTRACT_MAX_USD = 1_000;

function envelope(data: unknown): RestReply {
  return ok({ code: '0', msg: '', data });
}

const idOf = (ticker: string, market: Market): string => (market === 'SPOT' ? ticker : `${ticker}-SWAP`);

function ctVal(i: Instrument): number {
  return contractSizeFor(i, CONTRACT_MAX_USD);
}

function spotInstrument(i: Instrument): Record<string, unknown> {
  return {
    instType: 'SPOT', instId: idOf(i.ticker, 'SPOT'), uly: '', instFamily: '', baseCcy: i.base, quoteCcy: i.quote,
    settleCcy: '', ctVal: '', ctMult: '', ctValCcy: '', optType: '', stk: '', listTime: '1611907686000',
    expTime: '', lever: '10', tickSz: formatStep(i.tick, i.tick), lotSz: formatPlain(i.lotStep),
    minSz: formatPlain(i.lotStep), ctType: '', alias: '', state: 'live', maxLmtSz: '9999999999',
    maxMktSz: '1000000', maxTwapSz: '9999999999', maxIcebergSz: '9999999999', maxTriggerSz: '9999999999',
    maxStopSz: '1000000', ruleType: 'normal',
  };
}

function swapInstrument(i: Instrument): Record<string, unknown> {
  return {
    instType: 'SWAP', instId: idOf(i.ticker, 'FUTURES'), uly: i.ticker, instFamily: i.ticker, baseCcy: '',
    quoteCcy: '', settleCcy: 'USDT', ctVal: formatPlain(ctVal(i)), ctMult: '1', ctValCcy: i.base, optType: '',
    stk: '', listTime: '1611916828000', contTdSwTime: '1611916828000', expTime: '', lever: '100',
    tickSz: formatStep(i.tick, i.tick), lotSz: '0.01', minSz: '0.01', ctType: 'linear', alias: '',
    state: 'live', maxLmtSz: '100000000', maxMktSz: '12000', maxTwapSz: '100000000',
    maxIcebergSz: '100000000', maxTriggerSz: '100000000', maxStopSz: '12000', ruleType: 'normal',
  };
}

function instruments(req: RestRequest, state: MarketState): RestReply {
  const type = req.query.get('instType');
  if (type === 'SPOT') return envelope(state.listed('okx', 'SPOT').map((i) => withVenueStatus(state, 'okx', STATUS, 'SPOT', i.ticker, spotInstrument(i))));
  if (type === 'SWAP') return envelope(state.listed('okx', 'FUTURES').map((i) => withVenueStatus(state, 'okx', STATUS, 'FUTURES', i.ticker, swapInstrument(i))));
  return envelope([]);
}

/** Book sizes as OKX sends them: base units on spot, contracts on perpetuals. */
function size(q: SimQuote, qty: number, i: Instrument): string {
  return q.market === 'SPOT' ? formatPlain(qty) : toContracts(qty, ctVal(i));
}

function tickerRow(q: SimQuote, i: Instrument): Record<string, unknown> {
  const last = formatStep((q.bid + q.ask) / 2, i.tick);
  const baseVolume = q.volume / Number(last);
  // SPOT: vol24h base, volCcy24h quote. SWAP: vol24h contracts, volCcy24h base.
  const vol24h = q.market === 'SPOT' ? baseVolume : baseVolume / ctVal(i);
  const volCcy24h = q.market === 'SPOT' ? q.volume : baseVolume;
  return {
    instType: q.market === 'SPOT' ? 'SPOT' : 'SWAP', instId: idOf(q.ticker, q.market), last,
    lastSz: size(q, i.lotStep, i), askPx: formatStep(q.ask, i.tick), askSz: size(q, q.askQty, i),
    bidPx: formatStep(q.bid, i.tick), bidSz: size(q, q.bidQty, i), open24h: last, high24h: last, low24h: last,
    volCcy24h: volCcy24h.toFixed(6), vol24h: vol24h.toFixed(6), ts: String(Date.now()), sodUtc0: last, sodUtc8: last,
  };
}

function tickers(req: RestRequest, state: MarketState): RestReply {
  const type = req.query.get('instType');
  const market: Market | undefined = type === 'SPOT' ? 'SPOT' : type === 'SWAP' ? 'FUTURES' : undefined;
  const rows = market === undefined ? [] : state.list({ exchange: 'okx', market }).flatMap((q) => {
    const i = state.instrument(q.ticker);
    return i ? [tickerRow(q, i)] : [];
  });
  return envelope(rows);
}

/** One row per currency and chain; OKX names a chain `<ccy>-<network>` (`USDT-TRC20`). */
function currencyRow(n: SimNetwork, index: number): Record<string, unknown> {
  const fee = formatPlain(n.withdrawFee);
  return {
    ccy: n.asset, name: n.asset, logoLink: '', chain: `${n.asset}-${n.network}`, ctAddr: n.contract ?? '', canDep: n.depositEnabled,
    canWd: n.withdrawEnabled, canInternal: true, depEstOpenTime: '', wdEstOpenTime: '', minDep: '0.00000001',
    minWd: formatPlain(n.withdrawFee * 2), maxWd: '9999999', wdTickSz: '8', wdQuota: '10000000', usedWdQuota: '0',
    fee, minFee: fee, maxFee: fee, minFeeForCtAddr: fee, maxFeeForCtAddr: fee, burningFeeRate: '', mainNet: index === 0,
    needTag: false, minDepArrivalConfirm: '12', minWdUnlockConfirm: '12', depQuotaFixed: '', usedDepQuotaFixed: '',
    depQuoteDailyLayer2: '',
  };
}

/**
 * Every chain of every currency with its transfer state and withdrawal fee (PUT /_sim/networks);
 * `ccy` (comma list) narrows it. Without an API key OKX answers 401 with code 50103.
 */
function currencies(req: RestRequest, state: MarketState): RestReply {
  if (apiKeyOf(req, 'OK-ACCESS-KEY') === undefined) {
    return { status: 401, body: { msg: 'Request header OK-ACCESS-KEY can not be empty.', code: '50103' } };
  }
  const wanted = new Set((req.query.get('ccy') ?? '').toUpperCase().split(',').filter(Boolean));
  return envelope([...state.networks.byAsset('okx')]
    .filter(([asset]) => wanted.size === 0 || wanted.has(asset))
    .flatMap(([, networks]) => networks.map(currencyRow)));
}

function subscriptionOf(instId: unknown, state: MarketState): Subscription | undefined {
  if (typeof instId !== 'string') return undefined;
  const market: Market = instId.endsWith('-SWAP') ? 'FUTURES' : 'SPOT';
  const ticker = instId.replace(/-SWAP$/, '');
  return state.instrument(ticker) && state.isListed('okx', market, ticker) ? { market, ticker } : undefined;
}

function onSubscribe(session: WsSession, msg: Record<string, unknown>, state: MarketState): void {
  const subscribing = msg.op === 'subscribe';
  for (const arg of objectList(msg.args)) {
    const channel = typeof arg.channel === 'string' ? arg.channel : '';
    const found = channel === 'bbo-tbt' || channel in OKX_DEPTH_CHANNELS ? subscriptionOf(arg.instId, state) : undefined;
    const sub = found && channel !== 'bbo-tbt' ? { ...found, depth: channel } : found;
    if (!sub) {
      session.reply({ event: 'error', code: '60018', msg: `Wrong URL or channel:${String(arg.channel)},instId:${String(arg.instId)} doesn't exist.`, connId: 'sim' });
      continue;
    }
    if (subscribing) session.subscribe(sub);
    else session.unsubscribe(sub);
    session.reply({ event: msg.op, arg: { channel: arg.channel, instId: arg.instId }, connId: 'sim' });
    if (subscribing) session.pushNow(sub);
  }
}

export const okxProtocol: ExchangeProtocol = {
  name: 'okx',
  ownsHost: (hostname) => hostname.endsWith('okx.com'),
  rest(req, state) {
    switch (req.path) {
      case '/api/v5/public/instruments':
        return instruments(req, state);
      case '/api/v5/market/tickers':
        return tickers(req, state);
      case '/api/v5/public/funding-rate': {
        const instId = req.query.get('instId');
        return envelope(fundingRows(state, PERPETUALS, instId === 'ANY' ? null : instId).map(okxFundingRate));
      }
      case '/api/v5/public/mark-price':
        return envelope(req.query.get('instType') === 'SWAP' ? fundingRows(state, PERPETUALS, req.query.get('instId')).map(okxMarkPrice) : []);
      case '/api/v5/asset/currencies':
        return currencies(req, state);
      case '/api/v5/public/funding-rate-history':
        return okxFundingHistory(req, state);
      case '/api/v5/public/time':
        return envelope([{ ts: String(Date.now()) }]);
      default:
        return undefined;
    }
  },
  onMessage(session, text, state) {
    if (text === 'ping') {
      session.reply('pong');
      return;
    }
    const msg = parseJsonObject(text);
    if (msg?.op === 'subscribe' || msg?.op === 'unsubscribe') onSubscribe(session, msg, state);
    else session.reply({ event: 'error', code: '60012', msg: `Invalid request: ${text.slice(0, 100)}`, connId: 'sim' });
  },
  renderDepth(sub, frame, state) {
    const i = state.instrument(frame.quote.ticker);
    return i ? renderOkxDepth(sub, frame, state, idOf(i.ticker, sub.market), ctVal(i)) : undefined;
  },
  render(q, state) {
    const i = state.instrument(q.ticker);
    if (!i) return '{}';
    const instId = idOf(q.ticker, q.market);
    return JSON.stringify({
      arg: { channel: 'bbo-tbt', instId },
      data: [{
        asks: [[formatStep(q.ask, i.tick), size(q, q.askQty, i), '0', '3']],
        bids: [[formatStep(q.bid, i.tick), size(q, q.bidQty, i), '0', '4']],
        ts: String(q.updatedAt), seqId: q.seq,
      }],
    });
  },
};
