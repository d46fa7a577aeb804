/** What moving capital along a spot route costs, and whether it can move at all (rules: recorders). */
export interface RouteCosts {
  buyFeePercent: number;
  sellFeePercent: number;
  /** Base units, charged on withdrawal from the buy exchange. */
  withdrawalFee: number;
  withdrawalFeeUsd: number;
  /** Some figure above is a `recorders` default rather than the exchange's own. */
  feesEstimated: boolean;
  /** Withdrawal on the buy exchange and deposit on the sell exchange are open on one common network. */
  executable: boolean;
}

export interface SpotRoute {
  ticker: string;
  buyExchange: string;
  sellExchange: string;
}

/**
 * Where the recorder gets a route's costs. Behind an interface so the exchanges' real taker fees
 * and network states can replace the defaults once the market-data source offers them.
 */
export interface RouteCostsProvider {
  /** `buyAsk` converts a USD withdrawal fee into base units (quotes are in USDT). */
  costsOf(route: SpotRoute, buyAsk: number): RouteCosts;
}

export const DEFAULT_TAKER_FEE_PERCENT = 0.1;
export const DEFAULT_WITHDRAWAL_FEE_USD = 1;

/**
 * The `cost-defaults` rule defaults for every route: taker 0.1 % on both sides, withdrawal 1 USD, all marked estimated.
 * Nothing is known about networks yet, so no route is held back as not executable.
 */
export class DefaultRouteCosts implements RouteCostsProvider {
  costsOf(_route: SpotRoute, buyAsk: number): RouteCosts {
    return {
      buyFeePercent: DEFAULT_TAKER_FEE_PERCENT,
      sellFeePercent: DEFAULT_TAKER_FEE_PERCENT,
      withdrawalFee: DEFAULT_WITHDRAWAL_FEE_USD / buyAsk,
      withdrawalFeeUsd: DEFAULT_WITHDRAWAL_FEE_USD,
      feesEstimated: true,
      executable: true,
    };
  }
}
