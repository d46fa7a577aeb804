export interface RealtimeConfig {
  /** The `opportunities` rule: an opportunity must exceed this gross spread, in percent. */
  minProfitPercent: number;
  /** Per-symbol debounce: an opportunity is emitted this long after the tick that started it (200 ms; lower only for tests). */
  debounceMs: number;
  /** The `opportunities` rule: one price snapshot per second. */
  pricesIntervalMs: number;
  /** The notional, USDT, an opportunity's withdrawal fee is charged against in `netProfitPercent`. */
  netReferenceUsdt: number;
}
