import type { MarketInterface, Ticker, Tickers } from 'ccxt';
import { dec, roundPercent } from '../../common/money/money.js';
import type { Market } from '../../market-model/exchanges.js';
import { quoteVolumeOf } from './exchange-clients.js';
import { marketStatusOf } from './market-status.js';
import type { MarketListing, TradingFee, VolumeEntry } from '../market-data-source.js';
import { fromCcxtSymbol, multiplierOfCcxtSymbol, unknownLotOfCcxtSymbol } from '../../market-model/ticker.js';

/** The currency a venue's perpetuals settle in (its folder's `quoteCurrency`), USDT where unstated. */
export type Settle = 'USDT' | 'USDC';

/**
 * Spot markets and the perpetuals settled in the venue's currency (USDT, or USDC on a USDC venue)
 * that trade; everything else ccxt lists is ignored: a halted or delisted market
 * (`marketStatusOf` says why) and a market whose name carries a lot of unknown size
 * (`unknownLots` says why; rules: tickers).
 */
export function marketKind(m: MarketInterface, settle: Settle = 'USDT'): Market | null {
  return marketStatusOf(m).state === 'trading' ? listedKind(m, settle) : null;
}

/** As `marketKind`, whatever the market's trading status. */
function listedKind(m: MarketInterface, settle: Settle): Market | null {
  if (unknownLotOfCcxtSymbol(m.symbol) !== undefined) return null;
  if (m.spot) return 'SPOT';
  if (m.swap && m.linear && m.settle === settle) return 'FUTURES';
  return null;
}

/**
 * What the venue lists, halted and delisted markets included: the feeds are asked for them and
 * report them under `refused` with the venue's status until it trades them again.
 */
export function toListings(markets: Record<string, MarketInterface | undefined>, settle: Settle = 'USDT'): MarketListing[] {
  const out: MarketListing[] = [];
  for (const m of Object.values(markets)) {
    const market = m ? listedKind(m, settle) : null;
    if (m && market) out.push({ market, ticker: fromCcxtSymbol(m.symbol) });
  }
  for (const { symbol, reason } of unknownLots(markets)) {
    out.push({ market: symbol.includes(':') ? 'FUTURES' : 'SPOT', ticker: fromCcxtSymbol(symbol), leftOut: reason });
  }
  return out;
}

/**
 * Spot taker fees in percent, as the loaded markets carry them: the exchange's published rate
 * for the market (its public fee schedule), not an account's tier, which needs API keys.
 */
export function toTakerFees(markets: Record<string, MarketInterface | undefined>, settle: Settle = 'USDT'): TradingFee[] {
  const out: TradingFee[] = [];
  for (const m of Object.values(markets)) {
    if (!m || marketKind(m, settle) !== 'SPOT' || typeof m.taker !== 'number' || !Number.isFinite(m.taker)) continue;
    // The money rule: 0.0015 × 100 is 0.15000000000000002 in doubles, 0.15 in decimal.
    out.push({ ticker: fromCcxtSymbol(m.symbol), takerPercent: roundPercent(dec(m.taker).times(100)) });
  }
  return out;
}

/**
 * 24 h volume in quote currency, by the one rule of `quoteVolumeOf`: a venue that reports only
 * base volume gets base × last, where the base of a perpetual traded in contracts (okx, gate) is
 * contracts × the market's contract size.
 */
export function toVolumes(market: Market, tickers: Tickers, markets: Record<string, MarketInterface | undefined>): VolumeEntry[] {
  const out: VolumeEntry[] = [];
  for (const t of Object.values(tickers) as (Ticker | undefined)[]) {
    if (!t?.symbol) continue;
    const isPerp = t.symbol.includes(':');
    if (isPerp !== (market === 'FUTURES')) continue;
    const quoteVolume = quoteVolumeOf(t, markets[t.symbol]);
    if (quoteVolume === undefined || !Number.isFinite(quoteVolume)) continue;
    out.push({ market, ticker: fromCcxtSymbol(t.symbol), quoteVolume });
  }
  return out;
}

const symbolMaps = new WeakMap<object, { settle: Settle; symbols: ReadonlyMap<string, string> }>();

/**
 * The ccxt symbol watched for each canonical ticker of a market, key `MARKET|TICKER`: `PEPE-USDT`
 * on binance's perpetuals is `1000PEPE/USDT:USDT`. Where a venue lists the asset both per unit
 * and in lots, the per-unit market wins (its prices need no scaling).
 */
export function symbolsByTicker(markets: Record<string, MarketInterface | undefined>, settle: Settle = 'USDT'): ReadonlyMap<string, string> {
  // Built once per loaded market set: ccxt replaces the object on a reload, and a funding-history
  // backfill asks for one symbol per perpetual (thousands of calls over one set).
  const cached = symbolMaps.get(markets);
  if (cached?.settle === settle) return cached.symbols;
  const out = new Map<string, string>();
  for (const m of Object.values(markets)) {
    const market = m ? marketKind(m, settle) : null;
    if (!m || !market) continue;
    const key = `${market}|${fromCcxtSymbol(m.symbol)}`;
    const taken = out.get(key);
    if (taken === undefined || multiplierOfCcxtSymbol(m.symbol) < multiplierOfCcxtSymbol(taken)) out.set(key, m.symbol);
  }
  symbolMaps.set(markets, { settle, symbols: out });
  return out;
}

/** Spot and USDT-perpetual markets left out for a lot name of unknown size, each with the reason. */
export function unknownLots(markets: Record<string, MarketInterface | undefined>): { symbol: string; reason: string }[] {
  const out: { symbol: string; reason: string }[] = [];
  for (const m of Object.values(markets)) {
    const reason = m && (m.spot || (m.swap && m.linear)) ? unknownLotOfCcxtSymbol(m.symbol) : undefined;
    if (m && reason !== undefined) out.push({ symbol: m.symbol, reason });
  }
  return out;
}
