/** The one market-data read the calculator needs (rules: calculator-market-data, recorders); bound to the sample repository. */
export interface LatestSample {
  time: Date;
  spotBid: number;
  futuresAsk: number;
  fundingRate: number | null;
}

export interface LatestSampleReader {
  /** The newest sample of (ticker, exchange) with time ≥ `notOlderThan`, or null. */
  latestSample(ticker: string, exchange: string, notOlderThan: Date): Promise<LatestSample | null>;
}
