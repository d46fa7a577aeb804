/**
 * One recorded opportunity of a spot route (rules: history-import), as the import and the live recorder hand it to
 * the repository. Times carry millisecond precision (a JS Date), which the backtest's keyset
 * pagination relies on.
 */
export interface OpportunitySample {
  time: Date;
  /** Canonical `BASE-QUOTE`. */
  ticker: string;
  buyExchange: string;
  sellExchange: string;
  /** Ask on the buy exchange. */
  buyPrice: number;
  /** Bid on the sell exchange. */
  sellPrice: number;
  grossSpreadPercent: number;
  buyFeePercent: number;
  sellFeePercent: number;
  /** Base units. */
  withdrawalFee: number;
  withdrawalFeeUsd: number;
  /** Some fee above is a default (taker 0.1 %, withdrawal 1 USD). */
  feesEstimated: boolean;
  /** Withdrawal on the buy side and deposit on the sell side are open on one common network. */
  executable: boolean;
  /** 24 h quote volume; null when not known yet. */
  volume24h: number | null;
}

/** Route and time identify a sample: the idempotency key of imports. */
export const sampleKey = (s: OpportunitySample): string =>
  `${s.ticker}|${s.buyExchange}|${s.sellExchange}|${s.time.getTime()}`;
