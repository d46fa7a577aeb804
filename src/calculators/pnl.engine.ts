import { amount, dec, isProfitable, percent, priceFigure } from '../common/money/money.js';

/**
 * Calculator math (rules: calculator, pnl, calculator-market-data). Pure: no I/O, no clock.
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
  /** Spot BID (rules: quotes). */
  spotBid: number;
  /** Futures ASK (rules: quotes). */
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

/**
 * The `calculator` rule: the totals and spread stored with an entry, in decimal, rounded once (README
 * "Money and percent figures"). Throws FigureOutOfRangeError (a 400) when one is out of range.
 */
export function entryFigures(v: EntryValues): EntryFigures {
  const spot = dec(v.entrySpotValue);
  const short = dec(v.entryShortValue);
  const entrySpread = short.minus(spot);
  return {
    entrySpotTotalValue: amount(spot.times(v.entrySpotQty), 'entrySpotTotalValue'),
    entryFuturesTotalValue: amount(short.times(v.entryFuturesQty), 'entryFuturesTotalValue'),
    entrySpread: priceFigure(entrySpread, 'entrySpread'),
    entrySpreadPercentage: percent(entrySpread.div(spot).times(100), 'entrySpreadPercentage'),
  };
}

/** The `pnl` rule in decimal; isProfitable exactly when the pnl AS SHOWN (rounded) is above 0. */
export function computePnl(v: EntryValues, market: MarketPrices): PnlFigures {
  const spot = dec(v.entrySpotValue);
  const short = dec(v.entryShortValue);
  const bid = dec(market.spotBid);
  const ask = dec(market.futuresAsk);
  const spotChange = bid.minus(spot).times(v.entrySpotQty);
  const futuresChange = short.minus(ask).times(v.entryFuturesQty);
  const rawPnl = spotChange.plus(futuresChange);
  const entryTotal = spot.times(v.entrySpotQty).plus(short.times(v.entryFuturesQty));
  const currentSpread = ask.minus(bid);
  const { entrySpread, entrySpreadPercentage } = entryFigures(v);
  const pnl = amount(rawPnl, 'pnl');
  return {
    entrySpread,
    entrySpreadPercentage,
    currentSpotPrice: market.spotBid,
    currentFuturePrice: market.futuresAsk,
    currentSpread: priceFigure(currentSpread, 'currentSpread'),
    currentSpreadPercentage: percent(currentSpread.div(bid).times(100), 'currentSpreadPercentage'),
    fundingRate: market.fundingRate,
    pnl,
    pnlPercentage: percent(rawPnl.div(entryTotal).times(100), 'pnlPercentage'),
    isProfitable: isProfitable(pnl),
  };
}
