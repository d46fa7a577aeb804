import type { Market } from '../../market-model/exchanges.js';
import { formatPlain, type Instrument } from '../instruments.js';
import type { SimQuote } from '../market-state.js';

/** How a venue lists an asset in lots: the base name it shows, and units of the asset per price. */
export interface Lot {
  readonly name: string;
  readonly multiplier: number;
}

/**
 * A venue's lot-named markets, by market and asset, as its market lists name them (`1000PEPE`
 * for PEPE). A venue that quotes every coin per unit (its contract sizes carry the lot) has none.
 * The simulator keeps every price per unit and scales at the edge: the venue's price is the unit
 * price × multiplier.
 */
export type VenueLots = Readonly<Partial<Record<Market, Readonly<Record<string, Lot>>>>>;

export const NO_LOTS: VenueLots = {};

const baseOf = (ticker: string): string => ticker.slice(0, ticker.indexOf('-'));

export function lotOf(lots: VenueLots, market: Market, ticker: string): Lot | undefined {
  return lots[market]?.[baseOf(ticker)];
}

/** The asset a lot name of the venue stands for (`1000PEPE` → `PEPE`), in any market, or the name itself. */
export function assetOfBase(lots: VenueLots, base: string): string {
  for (const byAsset of Object.values(lots)) {
    for (const [asset, lot] of Object.entries(byAsset)) if (lot.name === base) return asset;
  }
  return base;
}

/** The ticker as the venue names the market: `1000PEPE-USDT` for a PEPE perpetual listed per 1000. */
export function venueTicker(lots: VenueLots, market: Market, ticker: string): string {
  const lot = lotOf(lots, market, ticker);
  return lot ? `${lot.name}${ticker.slice(ticker.indexOf('-'))}` : ticker;
}

/** The instrument as the venue lists it: lot name, prices and tick × multiplier, lot step ÷ it. */
export function venueInstrument(lots: VenueLots, market: Market, i: Instrument): Instrument {
  const lot = lotOf(lots, market, i.ticker);
  if (!lot) return i;
  const m = lot.multiplier;
  return {
    ...i, base: lot.name, ticker: `${lot.name}-${i.quote}`, mid: i.mid * m, tick: i.tick * m,
    lotStep: Math.max(1, Number(formatPlain(i.lotStep / m))), volume: i.volume,
  };
}

/** A quote as the venue sends it: prices × multiplier, quantities in lots (÷ multiplier). */
export function venueQuote(lots: VenueLots, q: SimQuote): SimQuote {
  const lot = lotOf(lots, q.market, q.ticker);
  if (!lot) return q;
  const m = lot.multiplier;
  return { ...q, ticker: `${lot.name}${q.ticker.slice(q.ticker.indexOf('-'))}`, bid: q.bid * m, ask: q.ask * m, bidQty: q.bidQty / m, askQty: q.askQty / m };
}
