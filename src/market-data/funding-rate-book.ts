/**
 * The latest collected funding rate per perpetual. The funding collector (its own module, which
 * depends on market data) publishes each collection here; the sample recorder reads it, so
 * every sample carries the rate of its moment (rules: recorders) and the calculator gets it from the sample
 * (rules: quotes) without market data depending on the funding module.
 */
export class FundingRateBook {
  private rates = new Map<string, number>();

  /** Replaces the whole book with one collection's rates (null rates are simply absent). */
  replace(entries: Iterable<{ exchange: string; ticker: string; fundingRate: number | null }>): void {
    const next = new Map<string, number>();
    for (const e of entries) if (e.fundingRate !== null) next.set(key(e.exchange, e.ticker), e.fundingRate);
    this.rates = next;
  }

  rate(exchange: string, ticker: string): number | null {
    return this.rates.get(key(exchange, ticker)) ?? null;
  }
}

const key = (exchange: string, ticker: string): string => `${exchange}|${ticker}`;
