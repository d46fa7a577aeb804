import type { Clock } from './clock.js';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import type { MarketSample } from './market-sample.repository.js';
import type { QuoteBook } from './quote-book.js';

/** The latest collected funding rate of a perpetual, or null (see FundingRateBook). */
export type FundingRateLookup = (exchange: string, ticker: string) => number | null;

/**
 * The `recorders` rule: one sample per (ticker, exchange) whose spot AND futures quotes are both fresh, all
 * stamped with the same instant so a sampling round reads as one cross-section.
 */
export function collectSamples(book: QuoteBook, now: number, funding: FundingRateLookup = () => null): MarketSample[] {
  const time = new Date(now);
  const out: MarketSample[] = [];
  for (const exchange of EXCHANGE_NAMES) {
    for (const spot of book.snapshot({ exchange, market: 'SPOT' })) {
      if (spot.stale) continue;
      const futures = book.get(exchange, 'FUTURES', spot.ticker);
      if (!futures || book.isStale(futures, now)) continue;
      out.push({
        time,
        ticker: spot.ticker,
        exchange,
        spotBid: spot.bid,
        spotAsk: spot.ask,
        futuresBid: futures.bid,
        futuresAsk: futures.ask,
        fundingRate: funding(exchange, spot.ticker),
      });
    }
  }
  return out;
}

export interface SampleRecorderDeps {
  book: QuoteBook;
  clock: Clock;
  insert(samples: readonly MarketSample[]): Promise<void>;
  funding?: FundingRateLookup;
}

export class SampleRecorder {
  constructor(private readonly deps: SampleRecorderDeps) {}

  /** Takes one sampling round and stores it; returns how many rows were written. */
  async recordOnce(): Promise<number> {
    const samples = collectSamples(this.deps.book, this.deps.clock.now(), this.deps.funding);
    if (samples.length > 0) await this.deps.insert(samples);
    return samples.length;
  }
}
