/** Import rows for the opportunity-history e2e tests (the `history-import` rule members). */
export interface HistoryRow {
  time: string;
  ticker: string;
  buyExchange: string;
  sellExchange: string;
  buyPrice: number;
  sellPrice: number;
  grossSpreadPercent: number;
  buyFeePercent: number;
  sellFeePercent: number;
  withdrawalFee: number;
  withdrawalFeeUsd: number;
  feesEstimated: boolean;
  executable: boolean;
  volume24h: number | null;
}

export const STEP_MS = 10_000; // HISTORY_INTERVAL_MS default

/** A row of BTC-USDT binance → okx; fees 0.1 % + 0.1 % and 1 USD unless overridden. */
export function row(time: number, gross: number, extra: Partial<HistoryRow> = {}): HistoryRow {
  return {
    time: new Date(time).toISOString(), ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx',
    buyPrice: 100, sellPrice: 100 * (1 + gross / 100), grossSpreadPercent: gross, buyFeePercent: 0.1,
    sellFeePercent: 0.1, withdrawalFee: 0.00002, withdrawalFeeUsd: 1, feesEstimated: false, executable: true,
    volume24h: 1_000_000, ...extra,
  };
}

/**
 * The designed history, sample i at base + i × 10 s, gross basis, threshold 0.5, transfer 1 min
 * (6 intervals), capital 1000 (costs 3 USD an operation):
 *   A  i1–i8   entry i1 (estimated fees), arrival i7, exit 1.2 → completed +12 gross, +9 net
 *   B  i10–i11 not executable → skippedInfeasible
 *   C  i13–i14 entry i13, arrival i19, closed by i15 → expired −3
 *   D  i16–i17 ends at i17, capital in transit until i19 → skippedBusy
 *   E  i19–i20 entry i19, arrival i25; a 40 s gap (> 30 s) after i20 ends it → expired −3
 *   F  i24     capital in transit until i25 → skippedBusy
 *   G  i27–i28 entry i27 (estimated fees), arrival i33 after the last sample → unresolved
 */
export function designedHistory(base: number): HistoryRow[] {
  const grosses: [number, number, Partial<HistoryRow>?][] = [
    [0, 0.2], [1, 0.6, { feesEstimated: true }], [2, 0.7], [3, 0.8], [4, 0.9], [5, 1.0], [6, 1.1], [7, 1.2], [8, 0.8],
    [9, 0.1], [10, 0.9, { executable: false }], [11, 0.8, { executable: false }], [12, 0.1], [13, 0.6], [14, 0.7],
    [15, 0.1], [16, 0.9], [17, 0.9], [18, 0.1], [19, 0.6], [20, 0.6], [24, 0.6], [25, 0.1], [26, 0.1],
    [27, 0.8, { feesEstimated: true }], [28, 0.8],
  ];
  return grosses.map(([i, gross, extra]) => row(base + i * STEP_MS, gross, extra));
}

export const at = (base: number, i: number): string => new Date(base + i * STEP_MS).toISOString();
