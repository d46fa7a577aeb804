import type { MarketInterface, Ticker, Tickers } from 'ccxt';
import type { Market } from '../exchanges.js';
import type { MarketListing, TradingFee, VolumeEntry } from '../market-data-source.js';
import { fromCcxtSymbol, multiplierOfCcxtSymbol } from '../ticker.js';

/** Spot markets and USDT-margined perpetuals (D1); everything else ccxt lists is ignored. */
export function marketKind(m: MarketInterface): Market | null {
  if (m.active === false) return null;
  if (m.spot) return 'SPOT';
  if (m.swap && m.linear && m.settle === 'USDT') return 'FUTURES';
  return null;
}

export function toListings(markets: Record<string, MarketInterface | undefined>): MarketListing[] {
  const out: MarketListing[] = [];
  for (const m of Object.values(markets)) {
    const market = m ? marketKind(m) : null;
    if (m && market) out.push({ market, ticker: fromCcxtSymbol(m.symbol) });
  }
  return out;
}

/**
 * Spot taker fees in percent, as the loaded markets carry them: the exchange's published rate
 * for the market (its public fee schedule), not an account's tier, which needs API keys.
 */
export function toTakerFees(markets: Record<string, MarketInterface | undefined>): TradingFee[] {
  const out: TradingFee[] = [];
  for (const m of Object.values(markets)) {
    if (!m || marketKind(m) !== 'SPOT' || typeof m.taker !== 'number' || !Number.isFinite(m.taker)) continue;
    // toPrecision: 0.0015 × 100 is 0.15000000000000002 in binary floating point.
    out.push({ ticker: fromCcxtSymbol(m.symbol), takerPercent: Number((m.taker * 100).toPrecision(12)) });
  }
  return out;
}

/** 24 h volume in quote currency; exchanges that report only base volume get base × last. */
export function toVolumes(market: Market, tickers: Tickers): VolumeEntry[] {
  const out: VolumeEntry[] = [];
  for (const t of Object.values(tickers) as (Ticker | undefined)[]) {
    if (!t?.symbol) continue;
    const isPerp = t.symbol.includes(':');
    if (isPerp !== (market === 'FUTURES')) continue;
    const quoteVolume = t.quoteVolume ?? (t.baseVolume !== undefined && t.last !== undefined ? t.baseVolume * t.last : undefined);
    if (quoteVolume === undefined || !Number.isFinite(quoteVolume)) continue;
    out.push({ market, ticker: fromCcxtSymbol(t.symbol), quoteVolume });
  }
  return out;
}

/**
 * The ccxt symbol watched for each canonical ticker of a market, key `MARKET|TICKER`: `PEPE-USDT`
 * on binance's perpetuals is `1000PEPE/USDT:USDT`. Where a venue lists the asset both per unit
 * and in lots, the per-unit market wins (its prices need no scaling).
 */
export function symbolsByTicker(markets: Record<string, MarketInterface | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of Object.values(markets)) {
    const market = m ? marketKind(m) : null;
    if (!m || !market) continue;
    const key = `${market}|${fromCcxtSymbol(m.symbol)}`;
    const taken = out.get(key);
    if (taken === undefined || multiplierOfCcxtSymbol(m.symbol) < multiplierOfCcxtSymbol(taken)) out.set(key, m.symbol);
  }
  return out;
}
