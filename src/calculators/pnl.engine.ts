/**
 * Calculator math (SPEC 2.1, 2.2, D5). Pure: no I/O, no clock.
 * The position is long spot (bought at entrySpotValue) and short futures (sold at
 * entryShortValue); it is valued at the prices it could be closed at now: sell spot at the
 * spot BID, buy futures back at the futures ASK.
 */
export interface EntryValues {
  entrySpotValue: number;
  entryShortValue: number;
  entrySpotQty: number;
  entryFuturesQty: number;
}

export interface EntryFigures {
  entrySpotTotalValue: number;
  entryFuturesTotalValue: number;
  entrySpread: number;
  entrySpreadPercentage: number;
}

export interface MarketPrices {
  /** Spot BID (D5). */
  spotBid: number;
  /** Futures ASK (D5). */
  futuresAsk: number;
  fundingRate: number | null;
}

export interface PnlFigures {
  entrySpread: number;
  entrySpreadPercentage: number;
  currentSpotPrice: number;
  currentFuturePrice: number;
  currentSpread: number;
  currentSpreadPercentage: number;
  fundingRate: number | null;
  pnl: number;
  pnlPercentage: number;
  isProfitable: boolean;
}

/** SPEC 2.1: the totals and spread stored with an entry. */
export function entryFigures(v: EntryValues): EntryFigures {
  const entrySpread = v.entryShortValue - v.entrySpotValue;
  return {
    entrySpotTotalValue: tidy(v.entrySpotValue * v.entrySpotQty),
    entryFuturesTotalValue: tidy(v.entryShortValue * v.entryFuturesQty),
    entrySpread: tidy(entrySpread),
    entrySpreadPercentage: tidy((entrySpread / v.entrySpotValue) * 100),
  };
}

/** SPEC 2.2 rules 1-5; isProfitable exactly when the (shown) pnl is above 0. */
export function computePnl(v: EntryValues, market: MarketPrices): PnlFigures {
  const spotChange = (market.spotBid - v.entrySpotValue) * v.entrySpotQty;
  const futuresChange = (v.entryShortValue - market.futuresAsk) * v.entryFuturesQty;
  const entryTotal = v.entrySpotValue * v.entrySpotQty + v.entryShortValue * v.entryFuturesQty;
  const pnl = tidy(spotChange + futuresChange);
  const currentSpread = market.futuresAsk - market.spotBid;
  const { entrySpread, entrySpreadPercentage } = entryFigures(v);
  return {
    entrySpread,
    entrySpreadPercentage,
    currentSpotPrice: market.spotBid,
    currentFuturePrice: market.futuresAsk,
    currentSpread: tidy(currentSpread),
    currentSpreadPercentage: tidy((currentSpread / market.spotBid) * 100),
    fundingRate: market.fundingRate,
    pnl,
    pnlPercentage: tidy(((spotChange + futuresChange) / entryTotal) * 100),
    isProfitable: pnl > 0,
  };
}

/**
 * Twelve significant digits: drops binary floating noise (110.1 − 100.2 = 9.899999999999991
 * becomes 9.9) that a trader would read as an error, while keeping tiny prices (1e-8) and
 * large totals (1e10) exact to far below anything shown. Relative, not a fixed number of
 * decimals, so a micro-cap position never rounds to 0. Never -0.
 */
export function tidy(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value === 0 ? 0 : value;
  const rounded = Number(value.toPrecision(12));
  return rounded === 0 ? 0 : rounded;
}
