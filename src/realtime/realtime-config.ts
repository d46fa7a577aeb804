export interface RealtimeConfig {
  /** D6: an opportunity must exceed this gross spread, in percent. */
  minProfitPercent: number;
  /** D6: per-symbol debounce. */
  debounceMs: number;
  /** SPEC 4.4: one price snapshot per second. */
  pricesIntervalMs: number;
  /** Issue 21: the notional, USDT, an opportunity's withdrawal fee is charged against in `netProfitPercent`. */
  netReferenceUsdt: number;
}
