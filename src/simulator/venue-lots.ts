import type { ExchangeName, Market } from '../market-model/exchanges.js';
import { formatPlain, type Instrument } from './instruments.js';
import type { SimQuote } from './market-state.js';

/** How a venue lists an asset in lots: the base name it shows, and units of the asset per price. */
export interface Lot {
  readonly name: string;
  readonly multiplier: number;
}

/**
 * The lot-named markets of the venues, as their market lists name them: binance
 * USDⓈ-M `1000PEPEUSDT`, `1000SHIBUSDT`, `1MBABYDOGEUSDT` and spot `1MBABYDOGEUSDT`; bybit linear
 * `1000PEPEUSDT`, `SHIB1000USDT`, `1000000BABYDOGEUSDT`. okx, gate and bitget quote these coins per
 * unit (their contract sizes carry the lot), so they are absent here. The simulator keeps every
 * price per unit and scales at the edge: the venue's price is the unit price × multiplier.
 */
const LOTS: Partial<Record<ExchangeName, Partial<Record<Market, Readonly<Record<string, Lot>>>>>> = {
  binance: {
    SPOT: { BABYDOGE: { name: '1MBABYDOGE', multiplier: 1_000_000 } },
    FUTURES: {
      PEPE: { name: '1000PEPE', multiplier: 1000 },
      SHIB: { name: '1000SHIB', multiplier: 1000 },
      BABYDOGE: { name: '1MBABYDOGE', multiplier: 1_000_000 },
    },
  },
  bybit: {
    FUTURES: {
      PEPE: { name: '1000PEPE', multiplier: 1000 },
      SHIB: { name: 'SHIB1000', multiplier: 1000 },
      BABYDOGE: { name: '1000000BABYDOGE', multiplier: 1_000_000 },
    },
  },
};

const ASSET_OF_LOT_NAME: ReadonlyMap<string, string> = new Map(
  Object.values(LOTS).flatMap((byMarket) => Object.values(byMarket).flatMap((lots) => Object.entries(lots).map(([asset, lot]) => [lot.name, asset] as const))),
);

const baseOf = (ticker: string): string => ticker.slice(0, ticker.indexOf('-'));

export function lotOf(exchange: ExchangeName, market: Market, ticker: string): Lot | undefined {
  return LOTS[exchange]?.[market]?.[baseOf(ticker)];
}

/** The asset a lot name stands for (`1000PEPE` → `PEPE`), or the name itself. */
export function assetOfBase(base: string): string {
  return ASSET_OF_LOT_NAME.get(base) ?? base;
}

/** The ticker as the venue names the market: `1000PEPE-USDT` for binance's PEPE perpetual. */
export function venueTicker(exchange: ExchangeName, market: Market, ticker: string): string {
  const lot = lotOf(exchange, market, ticker);
  return lot ? `${lot.name}${ticker.slice(ticker.indexOf('-'))}` : ticker;
}

/** The instrument as the venue lists it: lot name, prices and tick × multiplier, lot step ÷ it. */
export function venueInstrument(exchange: ExchangeName, market: Market, i: Instrument): Instrument {
  const lot = lotOf(exchange, market, i.ticker);
  if (!lot) return i;
  const m = lot.multiplier;
  return {
    ...i, base: lot.name, ticker: `${lot.name}-${i.quote}`, mid: i.mid * m, tick: i.tick * m,
    lotStep: Math.max(1, Number(formatPlain(i.lotStep / m))), volume: i.volume,
  };
}

/** A quote as the venue sends it: prices × multiplier, quantities in lots (÷ multiplier). */
export function venueQuote(q: SimQuote): SimQuote {
  const lot = lotOf(q.exchange, q.market, q.ticker);
  if (!lot) return q;
  const m = lot.multiplier;
  return { ...q, ticker: `${lot.name}${q.ticker.slice(q.ticker.indexOf('-'))}`, bid: q.bid * m, ask: q.ask * m, bidQty: q.bidQty / m, askQty: q.askQty / m };
}
