import { EXCHANGE_NAMES, type ExchangeName } from '../market-data/exchanges.js';

/** A spot quote as the detector needs it. */
export interface SpotQuote {
  readonly exchange: ExchangeName;
  readonly ticker: string;
  readonly bid: number;
  readonly ask: number;
  /** Local receive time, Unix ms: freshness is judged on it (D5). */
  readonly receivedAt: number;
}

export interface Opportunity {
  readonly ticker: string;
  readonly buyExchange: ExchangeName;
  readonly sellExchange: ExchangeName;
  /** Ask on the buy exchange. */
  readonly buyPrice: number;
  /** Bid on the sell exchange. */
  readonly sellPrice: number;
  readonly profitPercentAskBid: number;
}

export interface DetectorOptions {
  /** An opportunity must EXCEED this (D6: ARBITRAGE_MIN_PROFIT_PERCENT, default 0.1). */
  minProfitPercent: number;
  /** A quote older than this is stale and ignored (D5: 10 s). */
  staleMs: number;
}

const EXCHANGE_COUNT = EXCHANGE_NAMES.length;
const INDEX = new Map<ExchangeName, number>(EXCHANGE_NAMES.map((name, i) => [name, i]));

/**
 * Cross-exchange spot arbitrage (D6), incrementally: per ticker a fixed slot per exchange holds
 * its latest quote, so a tick costs O(number of exchanges) and never scans other tickers.
 *
 * For a ticker, among fresh quotes, buy where the ask is lowest and sell where the bid is highest,
 * on a different exchange. Ties go to the exchange listed first (binance, bybit, okx, gate,
 * bitget), so the result does not depend on arrival order.
 */
export class ArbitrageDetector {
  private readonly books = new Map<string, (SpotQuote | undefined)[]>();

  constructor(private readonly options: DetectorOptions) {}

  /** Records the quote; the caller then asks `best(ticker, now)`. */
  apply(quote: SpotQuote): void {
    let slots = this.books.get(quote.ticker);
    if (!slots) {
      slots = new Array<SpotQuote | undefined>(EXCHANGE_COUNT).fill(undefined);
      this.books.set(quote.ticker, slots);
    }
    slots[INDEX.get(quote.exchange) ?? 0] = quote;
  }

  /** The ticker's best opportunity at `now`, or null when none exceeds the threshold. */
  best(ticker: string, now: number): Opportunity | null {
    const slots = this.books.get(ticker);
    if (!slots) return null;
    const pair = bestPair(slots, now - this.options.staleMs);
    if (!pair) return null;
    const { buy, sell } = pair;
    const profit = ((sell.bid - buy.ask) / buy.ask) * 100;
    if (!(profit > this.options.minProfitPercent)) return null;
    return {
      ticker,
      buyExchange: buy.exchange,
      sellExchange: sell.exchange,
      buyPrice: buy.ask,
      sellPrice: sell.bid,
      profitPercentAskBid: profit,
    };
  }
}

interface Pair {
  buy: SpotQuote;
  sell: SpotQuote;
}

/**
 * Lowest and second-lowest ask, highest and second-highest bid, in one pass. When the best ask
 * and best bid sit on one exchange, the better of (2nd ask, best bid) and (best ask, 2nd bid)
 * is the best pair across two different exchanges.
 */
function bestPair(slots: readonly (SpotQuote | undefined)[], freshSince: number): Pair | null {
  let ask1: SpotQuote | undefined, ask2: SpotQuote | undefined;
  let bid1: SpotQuote | undefined, bid2: SpotQuote | undefined;
  for (const q of slots) {
    if (!q || q.receivedAt < freshSince) continue;
    if (!ask1 || q.ask < ask1.ask) [ask1, ask2] = [q, ask1];
    else if (!ask2 || q.ask < ask2.ask) ask2 = q;
    if (!bid1 || q.bid > bid1.bid) [bid1, bid2] = [q, bid1];
    else if (!bid2 || q.bid > bid2.bid) bid2 = q;
  }
  if (!ask1 || !bid1) return null;
  if (ask1.exchange !== bid1.exchange) return { buy: ask1, sell: bid1 };
  const viaSecondAsk = ask2 ? { buy: ask2, sell: bid1 } : null;
  const viaSecondBid = bid2 ? { buy: ask1, sell: bid2 } : null;
  if (!viaSecondAsk) return viaSecondBid;
  if (!viaSecondBid) return viaSecondAsk;
  return ratio(viaSecondAsk) >= ratio(viaSecondBid) ? viaSecondAsk : viaSecondBid;
}

const ratio = (p: Pair): number => p.sell.bid / p.buy.ask;
