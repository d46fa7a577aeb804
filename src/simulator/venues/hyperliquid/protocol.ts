import type { Market } from '../../../market-model/exchanges.js';
import { decimalsOf, formatPlain, formatStep, type Instrument } from '../../instruments.js';
import type { MarketState, SimQuote } from '../../market-state.js';
import { levelFormat, rows, scaled } from '../depth-levels.js';
import { fundingRows } from '../funding-rest.js';
import { assetOfBase, venueInstrument, venueQuote } from '../lots.js';
import { ok, parseJsonObject, type ExchangeProtocol, type RestReply } from '../protocol.js';
import { withVenueStatus } from '../venue-status.js';
import { PERPETUALS, fundingHistory } from './funding.js';
import { LOTS, SPOT_TOKEN_NAMES, STATUS } from './listing.js';

/**
 * Hyperliquid as ccxt 4.5.84 dials it: every public REST call is `POST https://api.hyperliquid.xyz/info`
 * with a JSON body naming its `type`; one websocket (`wss://api.hyperliquid.xyz/ws`) serves spot
 * and perpetuals, one `{"method":"subscribe","subscription":{…}}` message per channel and coin,
 * and an application ping `{"method":"ping"}` answered `{"channel":"pong"}`.
 *
 * The venue quotes in USDC: the simulator's instrument `BTC-USDT` is listed here as the perpetual
 * `BTC` (ccxt `BTC/USDC:USDC`) and the spot pair `@n` of token `UBTC` against USDC (ccxt
 * `BTC/USDC`), its simulated prices read as USDC. Perpetual coins are named by their base (`BTC`,
 * `kPEPE`), spot pairs by `@<index>`.
 */
const VENUE = 'hyperliquid';
/** `l2Book` carries at most this many levels a side. */
export const BOOK_LEVELS = 20;
const USDC_TOKEN = {
  name: 'USDC', szDecimals: 8, weiDecimals: 8, index: 0, tokenId: '0x6d1e7cde53ba9467b783cb7c530ce054', isCanonical: true, evmContract: null, fullName: null,
};

const baseOf = (ticker: string): string => ticker.slice(0, ticker.indexOf('-'));

// USDC is the venue's quote currency: the simulator's USDC-USDT instrument is no market here.
const listedHere = (i: Instrument): boolean => i.base !== 'USDC';

function perpetuals(state: MarketState): readonly Instrument[] {
  return state.listed(VENUE, 'FUTURES').filter(listedHere);
}

function spots(state: MarketState): readonly Instrument[] {
  return state.listed(VENUE, 'SPOT').filter(listedHere);
}

/** The coin a subscription or `info` call names the market by. */
function coinOf(state: MarketState, market: Market, ticker: string): string {
  if (market === 'FUTURES') return PERPETUALS.idOf(ticker);
  return `@${spots(state).findIndex((i) => i.ticker === ticker)}`;
}

/** The market a coin names, or undefined for a coin the venue does not list. */
function marketOfCoin(state: MarketState, coin: unknown): { market: Market; ticker: string } | undefined {
  if (typeof coin !== 'string') return undefined;
  if (coin.startsWith('@')) {
    const i = /^@\d+$/.test(coin) ? spots(state)[Number(coin.slice(1))] : undefined;
    return i ? { market: 'SPOT', ticker: i.ticker } : undefined;
  }
  const ticker = `${assetOfBase(LOTS, coin)}-USDT`;
  return perpetuals(state).some((i) => i.ticker === ticker) ? { market: 'FUTURES', ticker } : undefined;
}

const szDecimalsOf = (i: Instrument): number => decimalsOf(i.lotStep);

function midOf(q: SimQuote, i: Instrument): string {
  return formatStep((q.bid + q.ask) / 2, i.tick / 10);
}

/** `metaAndAssetCtxs`: the perpetuals' rows and, at the same positions, their live contexts. */
function metaAndAssetCtxs(state: MarketState): RestReply {
  const rates = new Map(fundingRows(state, PERPETUALS).map((r) => [r.id, r]));
  const universe: Record<string, unknown>[] = [];
  const ctxs: Record<string, unknown>[] = [];
  for (const unit of perpetuals(state)) {
    const i = venueInstrument(LOTS, 'FUTURES', unit);
    const coin = PERPETUALS.idOf(unit.ticker);
    universe.push(withVenueStatus(state, VENUE, STATUS, 'FUTURES', unit.ticker, { szDecimals: szDecimalsOf(i), name: coin, maxLeverage: 40, marginTableId: 50 }));
    const quote = state.get(VENUE, 'FUTURES', unit.ticker);
    const q = quote ? venueQuote(LOTS, quote) : undefined;
    const mid = q ? midOf(q, i) : formatStep(i.mid, i.tick);
    const rate = rates.get(coin);
    ctxs.push({
      funding: rate?.rate === '' || rate === undefined ? '0.0' : rate.rate, openInterest: '1000.0', prevDayPx: mid,
      dayNtlVlm: formatPlain(Number((q?.volume ?? i.volume).toFixed(2))), premium: '0.0', oraclePx: mid,
      markPx: rate?.mark === '' || rate === undefined ? mid : rate.mark, midPx: mid,
      impactPxs: q ? [formatStep(q.bid, i.tick), formatStep(q.ask, i.tick)] : null,
    });
  }
  return ok([{ universe, marginTables: [] }, ctxs]);
}

/** `spotMeta`: USDC and one token per listed coin, each paired with USDC as `@<index>`. */
function spotMeta(state: MarketState): { tokens: Record<string, unknown>[]; universe: Record<string, unknown>[] } {
  const tokens: Record<string, unknown>[] = [USDC_TOKEN];
  const universe: Record<string, unknown>[] = [];
  spots(state).forEach((i, n) => {
    const base = baseOf(i.ticker);
    const unit = SPOT_TOKEN_NAMES[base];
    tokens.push({
      name: unit ?? base, szDecimals: szDecimalsOf(i), weiDecimals: 8, index: n + 1, tokenId: `0x${(n + 1).toString(16).padStart(32, '0')}`,
      isCanonical: false, evmContract: null, fullName: unit ? `Unit ${base}` : null,
    });
    universe.push(withVenueStatus(state, VENUE, STATUS, 'SPOT', i.ticker, { name: `@${n}`, tokens: [n + 1, 0], index: n, isCanonical: false }));
  });
  return { tokens, universe };
}

function spotMetaAndAssetCtxs(state: MarketState): RestReply {
  const ctxs = spots(state).map((i, n) => {
    const q = state.get(VENUE, 'SPOT', i.ticker);
    const mid = q ? midOf(q, i) : formatStep(i.mid, i.tick);
    return { prevDayPx: mid, dayNtlVlm: formatPlain(Number((q?.volume ?? i.volume).toFixed(2))), markPx: mid, midPx: mid, circulatingSupply: '1000000000.0', coin: `@${n}` };
  });
  return ok([spotMeta(state), ctxs]);
}

/** A market's top 20 levels a side as `l2Book` writes them: `{px, sz, n}`, best first. */
function levelsOf(q: SimQuote, state: MarketState): [unknown[], unknown[]] | undefined {
  const book = state.book(q);
  if (!book) return undefined;
  const format = levelFormat(q, state, LOTS);
  const side = (levels: typeof book.bids): unknown[] => rows(scaled(LOTS, q, levels), format, BOOK_LEVELS).map(([px, sz]) => ({ px, sz, n: 1 }));
  return [side(book.bids), side(book.asks)];
}

function l2Book(state: MarketState, coin: unknown): RestReply {
  const found = marketOfCoin(state, coin);
  const q = found ? state.get(VENUE, found.market, found.ticker) : undefined;
  const levels = q ? levelsOf(q, state) : undefined;
  return ok(levels ? { coin, time: Date.now(), levels } : null);
}

function allMids(state: MarketState): RestReply {
  const mids: Record<string, string> = {};
  for (const q of state.list({ exchange: VENUE })) {
    const unit = state.instrument(q.ticker);
    if (!unit || !listedHere(unit) || !state.isListed(VENUE, q.market, q.ticker)) continue;
    const v = venueQuote(LOTS, q);
    mids[coinOf(state, q.market, q.ticker)] = midOf(v, venueInstrument(LOTS, q.market, unit));
  }
  return ok(mids);
}

/** The venue's answer to a body it cannot read (HTTP 422, plain text). */
const UNREADABLE: RestReply = { status: 422, body: 'Failed to deserialize the JSON body into the target type' };

function info(body: unknown, state: MarketState): RestReply {
  const request = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  switch (request?.type) {
    case 'metaAndAssetCtxs':
      // A HIP-3 dex is not simulated: only the main dex answers.
      return request.dex === undefined || request.dex === '' ? metaAndAssetCtxs(state) : UNREADABLE;
    case 'meta':
      return ok((metaAndAssetCtxs(state).body as [unknown, unknown])[0]);
    case 'spotMetaAndAssetCtxs':
      return spotMetaAndAssetCtxs(state);
    case 'spotMeta':
      return ok(spotMeta(state));
    case 'perpDexs':
      return ok([null]);
    case 'l2Book':
      return l2Book(state, request.coin);
    case 'allMids':
      return allMids(state);
    case 'fundingHistory':
      return fundingHistory(request, state);
    default:
      return UNREADABLE;
  }
}

/** A frame ccxt raises as an error on every pending watch of the socket (except "Already subscribed"). */
const errorFrame = (text: string): unknown => ({ channel: 'error', data: text });

export const hyperliquidProtocol: ExchangeProtocol = {
  name: VENUE,
  ownsHost: (hostname) => hostname === 'api.hyperliquid.xyz',
  rest(req, state) {
    if (req.path === '/info' && req.method === 'POST') return info(req.body, state);
    return undefined;
  },
  onMessage(session, text, state) {
    const msg = parseJsonObject(text);
    if (msg?.method === 'ping') {
      session.reply({ channel: 'pong' });
      return;
    }
    const subscription = msg?.subscription;
    const sub = typeof subscription === 'object' && subscription !== null ? (subscription as Record<string, unknown>) : undefined;
    const found = sub?.type === 'l2Book' ? marketOfCoin(state, sub.coin) : undefined;
    if (!msg || (msg.method !== 'subscribe' && msg.method !== 'unsubscribe') || !sub || !found) {
      session.reply(errorFrame(`Error parsing JSON into valid websocket request: ${text}`));
      return;
    }
    if (msg.method === 'subscribe') session.subscribe(found);
    else session.unsubscribe(found);
    session.reply({ channel: 'subscriptionResponse', data: { method: msg.method, subscription: { type: 'l2Book', coin: sub.coin, nSigFigs: null, mantissa: null } } });
    if (msg.method === 'subscribe') session.pushNow(found);
  },
  // `l2Book` is served as a market's plain subscription: every change pushes the whole top 20.
  renderDepth: () => undefined,
  render(quote, state) {
    const levels = levelsOf(quote, state) ?? [[], []];
    return JSON.stringify({ channel: 'l2Book', data: { coin: coinOf(state, quote.market, quote.ticker), time: quote.updatedAt, levels } });
  },
};
