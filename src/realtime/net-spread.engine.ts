import { Dec, roundPercent, spreadPercent } from '../common/money/money.js';
import { DEFAULT_TAKER_FEE_PERCENT, DEFAULT_WITHDRAWAL_FEE_USD } from '../market-data/route-costs.js';

/*
 * Money math of the opportunity stream under the service's one money rule
 * (README "Money and percent figures"): decimal throughout, rounded once at the edge.
 */

/** What the net spread of one route is computed from; fees as the costs book knows them. */
export interface NetSpreadInput {
  buyPrice: number;
  sellPrice: number;
  /** Taker fee in percent; undefined: unknown, the `recorders` rule default (0.1 %) applies. */
  buyFeePercent: number | undefined;
  sellFeePercent: number | undefined;
  /** Withdrawal fee in base units on the route's network; null: unknown, the `recorders` rule default (1 USD) applies. */
  withdrawalFee: number | null;
  /** The notional the withdrawal fee is charged against, USDT (NET_REFERENCE_USDT). */
  referenceUsdt: number;
}

export interface NetSpread {
  /** Gross spread minus both taker fees minus the withdrawal fee as a percent of the reference notional. */
  netPercent: number;
  /** Some figure was a `recorders` default rather than the exchange's own. */
  estimated: boolean;
}

/**
 * The `windows` rule's net, so a threshold on the live stream means the same as on the history's net basis:
 * net % = (sell − buy) ÷ buy × 100 − buy fee % − sell fee % − withdrawal fee USD ÷ reference × 100,
 * where withdrawal fee USD = fee in base units × buy price (the asset is bought at the ask).
 */
export function netSpread(input: NetSpreadInput): NetSpread {
  const buy = new Dec(input.buyPrice);
  const gross = new Dec(input.sellPrice).minus(buy).div(buy).times(100);
  const withdrawalUsd = input.withdrawalFee === null ? new Dec(DEFAULT_WITHDRAWAL_FEE_USD) : new Dec(input.withdrawalFee).times(buy);
  const net = gross
    .minus(input.buyFeePercent ?? DEFAULT_TAKER_FEE_PERCENT)
    .minus(input.sellFeePercent ?? DEFAULT_TAKER_FEE_PERCENT)
    .minus(withdrawalUsd.div(input.referenceUsdt).times(100));
  return {
    netPercent: roundPercent(net),
    estimated: input.buyFeePercent === undefined || input.sellFeePercent === undefined || input.withdrawalFee === null,
  };
}

/** Gross spread in percent from the two prices, in decimal, rounded at the edge (episode peaks). */
export function grossSpread(buyPrice: number, sellPrice: number): number {
  return roundPercent(spreadPercent(buyPrice, sellPrice));
}
