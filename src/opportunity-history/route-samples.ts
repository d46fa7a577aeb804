import { PERCENT_DECIMALS, roundPercent, roundsAtLeast, spreadPercent, thresholdFast } from '../common/money/money.js';
import type { BookQuote } from '../market-data/quote-book.js';
import type { OpportunitySample } from './opportunity-sample.js';
import type { RouteCostsProvider } from '../market-data/route-costs.js';

/** The part of a book quote the recorder reads: the fresh spot quotes of one exchange. */
export type SpotQuote = Pick<BookQuote, 'exchange' | 'ticker' | 'bid' | 'ask' | 'volume'>;

/**
 * The `recorders` rule: one sample per spot route (ticker, buy exchange, sell exchange) of different exchanges
 * whose gross spread (sell bid − buy ask) ÷ buy ask × 100 is at least `minSpreadPercent`, all
 * stamped with the same instant so a round reads as one cross-section. The spread is the money
 * rule's: decimal, rounded once to the percent decimals; doubles only decide the clear cases of
 * the threshold test.
 */
export function collectRouteSamples(
  quotes: Iterable<SpotQuote>,
  time: Date,
  minSpreadPercent: number,
  costs: RouteCostsProvider,
): OpportunitySample[] {
  const byTicker = new Map<string, SpotQuote[]>();
  for (const quote of quotes) {
    // A quote without a positive ask has no price to buy at (and no spread to divide by).
    if (!(quote.ask > 0)) continue;
    const list = byTicker.get(quote.ticker) ?? [];
    list.push(quote);
    byTicker.set(quote.ticker, list);
  }
  const out: OpportunitySample[] = [];
  for (const [ticker, tickerQuotes] of byTicker) {
    for (const buy of tickerQuotes) {
      for (const sell of tickerQuotes) {
        if (buy.exchange === sell.exchange) continue;
        const approx = ((sell.bid - buy.ask) / buy.ask) * 100;
        const scale = 100 * (Math.abs(sell.bid / buy.ask) + 1);
        const passes = thresholdFast(approx, scale, minSpreadPercent, PERCENT_DECIMALS)
          ?? roundsAtLeast(spreadPercent(buy.ask, sell.bid), minSpreadPercent, PERCENT_DECIMALS);
        if (!passes) continue;
        const route = { ticker, buyExchange: buy.exchange, sellExchange: sell.exchange };
        out.push({
          ...route,
          ...costs.costsOf(route, buy.ask),
          time,
          buyPrice: buy.ask,
          sellPrice: sell.bid,
          grossSpreadPercent: roundPercent(spreadPercent(buy.ask, sell.bid)),
          volume24h: smallerVolume(buy.volume, sell.volume),
        });
      }
    }
  }
  return out;
}

/** The `opportunities` rule/the `recorders` rule: the route's volume is the smaller of the two spot quote volumes; unknown if either is. */
function smallerVolume(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.min(a, b);
}
