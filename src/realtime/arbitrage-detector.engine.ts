import { PERCENT_DECIMALS, dec, roundPercent, roundsAbove, thresholdFast } from '../common/money/money.js';
import { EXCHANGE_NAMES, type ExchangeName, FIRST_EXCHANGE } from '../market-model/exchanges.js';

/** A spot quote as the detector needs it. */
export interface SpotQuote {
  readonly exchange: ExchangeName;
  readonly ticker: string;
  readonly bid: number;
  readonly ask: number;
  /** Local receive time, Unix ms: freshness is judged on it (rules: quotes). */
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
  /** In doubles, as the hot path computed it; the emitted figure is `profitPercentOf` (decimal). */
  readonly profitPercentAskBid: number;
}

/**
 * One episode of a route (ticker, buy, sell): from the tick that took its gross spread above the
 * threshold to the tick that took it back to or under it, or to the moment one of its two quotes
 * went stale. The peak is the highest gross spread seen, with the prices that made it. An episode
 * that closes at the instant it opened (quotes of one batch applied one after another) is none.
 */
export interface ClosedEpisode {
  readonly ticker: string;
  readonly buyExchange: ExchangeName;
  readonly sellExchange: ExchangeName;
  readonly openedAt: number;
  readonly closedAt: number;
  readonly peakGrossPercent: number;
  readonly peakBuyPrice: number;
  readonly peakSellPrice: number;
  /**
   * The ask and bid of the tick that took the spread back to or under the threshold; null when
   * the episode ended because a quote lapsed or left the route (no price to show then).
   */
  readonly closeBuyPrice: number | null;
  readonly closeSellPrice: number | null;
}

export interface DetectorOptions {
  /** An opportunity must EXCEED this (rules: opportunities; ARBITRAGE_MIN_PROFIT_PERCENT, default 0.1). */
  minProfitPercent: number;
  /** A quote older than this is stale and ignored (rules: staleness; 10 s). */
  staleMs: number;
  /** Called when a route's episode ends (rare next to ticks: only at a threshold crossing). */
  onEpisodeClosed?: (episode: ClosedEpisode) => void;
  /** A route's spread rose above the threshold (its order books are wanted); `spread` in percent, doubles. */
  onRouteOpened?: (route: RouteKey, at: number, spread: number) => void;
  /** A route's episode ended, including one that ended at the instant it opened. */
  onRouteEnded?: (route: RouteKey, at: number) => void;
}

export interface RouteKey {
  readonly ticker: string;
  readonly buyExchange: ExchangeName;
  readonly sellExchange: ExchangeName;
}

const EXCHANGE_COUNT = EXCHANGE_NAMES.length;
const INDEX = new Map<ExchangeName, number>(EXCHANGE_NAMES.map((name, i) => [name, i]));

/** Per route (buy × sell exchange index) four numbers: opened at (NaN while closed), peak gross %, its ask, its bid. */
const ROUTE_FIELDS = 4;
const OPENED = 0;
const PEAK = 1;
const PEAK_ASK = 2;
const PEAK_BID = 3;

interface TickerBook {
  readonly ticker: string;
  readonly slots: (SpotQuote | undefined)[];
  /** Route state, allocated once per ticker so that a tick allocates nothing. */
  readonly routes: Float64Array;
}

/**
 * Cross-exchange spot arbitrage (rules: opportunities), incrementally: per ticker a fixed slot per exchange holds
 * its latest quote, so a tick costs O(number of exchanges) and never scans other tickers.
 *
 * For a ticker, among fresh quotes, buy where the ask is lowest and sell where the bid is highest,
 * on a different exchange. Ties go to the exchange listed first (the registry's order), so the result does not depend on arrival order.
 *
 * Every route of a ticker also has an episode state: a tick re-evaluates the 2 × (n − 1)
 * routes its exchange takes part in, in place, so `openedAt` is known for any route without a scan.
 */
export class ArbitrageDetector {
  private readonly books = new Map<string, TickerBook>();

  constructor(private readonly options: DetectorOptions) {}

  /** Records the quote and updates the episodes of its routes; the caller then asks `best(ticker, now)`. */
  apply(quote: SpotQuote): void {
    let book = this.books.get(quote.ticker);
    if (!book) {
      book = {
        ticker: quote.ticker,
        slots: new Array<SpotQuote | undefined>(EXCHANGE_COUNT).fill(undefined),
        routes: new Float64Array(EXCHANGE_COUNT * EXCHANGE_COUNT * ROUTE_FIELDS).fill(NaN),
      };
      this.books.set(quote.ticker, book);
    }
    const e = INDEX.get(quote.exchange) ?? 0;
    const previous = book.slots[e];
    book.slots[e] = quote;
    const at = quote.receivedAt;
    // The ticking side's previous quote may have lapsed before this tick: an open route then ended when it did.
    const previousAt = previous ? previous.receivedAt : -Infinity;
    for (let k = 0; k < EXCHANGE_COUNT; k++) {
      const other = book.slots[k];
      if (k === e || !other) continue;
      this.updateRoute(book, e, k, quote, other, Math.min(previousAt, other.receivedAt), other.receivedAt, at);
      this.updateRoute(book, k, e, other, quote, Math.min(previousAt, other.receivedAt), other.receivedAt, at);
    }
  }

  /**
   * Drops an exchange's quote of a ticker, so it takes part in no route until it quotes again:
   * its ticker names another coin there. Its open episodes end at `now`.
   */
  withdraw(exchange: ExchangeName, ticker: string, now: number): void {
    const book = this.books.get(ticker);
    const e = INDEX.get(exchange) ?? 0;
    if (!book?.slots[e]) return;
    book.slots[e] = undefined;
    for (let k = 0; k < EXCHANGE_COUNT; k++) {
      if (!Number.isNaN(book.routes[routeIndex(e, k) + OPENED])) this.close(book, e, k, now);
      if (!Number.isNaN(book.routes[routeIndex(k, e) + OPENED])) this.close(book, k, e, now);
    }
  }

  /** When the route's current episode opened (Unix ms), or null while its spread is not above the threshold. */
  openedAt(ticker: string, buyExchange: ExchangeName, sellExchange: ExchangeName): number | null {
    const book = this.books.get(ticker);
    if (!book) return null;
    const opened = book.routes[routeIndex(INDEX.get(buyExchange) ?? 0, INDEX.get(sellExchange) ?? 0) + OPENED];
    return opened === undefined || Number.isNaN(opened) ? null : opened;
  }

  /**
   * Ends the episodes whose quotes went stale without another tick, at the moment the older quote
   * lapsed. O(tickers × routes); the caller runs it on a timer, not per tick.
   */
  sweep(now: number): void {
    for (const book of this.books.values()) {
      for (let b = 0; b < EXCHANGE_COUNT; b++) {
        for (let s = 0; s < EXCHANGE_COUNT; s++) {
          const i = routeIndex(b, s);
          if (Number.isNaN(book.routes[i + OPENED])) continue;
          const buy = book.slots[b];
          const sell = book.slots[s];
          const expiry = Math.min(buy?.receivedAt ?? -Infinity, sell?.receivedAt ?? -Infinity) + this.options.staleMs;
          if (expiry < now) this.close(book, b, s, expiry);
        }
      }
    }
  }

  /** The ticker's best opportunity at `now`, or null when none exceeds the threshold. */
  best(ticker: string, now: number): Opportunity | null {
    const slots = this.books.get(ticker)?.slots;
    if (!slots) return null;
    const pair = bestPair(slots, now - this.options.staleMs);
    if (!pair) return null;
    const { buy, sell } = pair;
    const profit = ((sell.bid - buy.ask) / buy.ask) * 100;
    if (!opens(profit, buy.ask, sell.bid, this.options.minProfitPercent)) return null;
    return {
      ticker,
      buyExchange: buy.exchange,
      sellExchange: sell.exchange,
      buyPrice: buy.ask,
      sellPrice: sell.bid,
      profitPercentAskBid: profit,
    };
  }

  /**
   * Re-evaluates route b → s at the tick time `at`. An open route first ends where its older quote
   * lapsed (`oldestAt` + staleMs) if that was before this tick; then it is open while the other
   * side is fresh and the gross spread exceeds the threshold.
   */
  private updateRoute(
    book: TickerBook, b: number, s: number, buy: SpotQuote, sell: SpotQuote, oldestAt: number, otherAt: number, at: number,
  ): void {
    const { staleMs, minProfitPercent } = this.options;
    const r = book.routes;
    const i = routeIndex(b, s);
    if (!Number.isNaN(r[i + OPENED]) && oldestAt + staleMs < at) this.close(book, b, s, oldestAt + staleMs);
    const spread = ((sell.bid - buy.ask) / buy.ask) * 100;
    const fresh = otherAt >= at - staleMs;
    if (fresh && opens(spread, buy.ask, sell.bid, minProfitPercent)) {
      if (Number.isNaN(r[i + OPENED])) {
        r[i + OPENED] = at;
        r[i + PEAK] = -Infinity;
        this.options.onRouteOpened?.(routeKey(book, b, s), at, spread);
      }
      if (spread > (r[i + PEAK] ?? -Infinity)) {
        r[i + PEAK] = spread;
        r[i + PEAK_ASK] = buy.ask;
        r[i + PEAK_BID] = sell.bid;
      }
    } else if (!Number.isNaN(r[i + OPENED])) {
      // Closed by a price: its spread at that moment is what the history records last (rules: recorders).
      this.close(book, b, s, at, fresh ? buy.ask : null, fresh ? sell.bid : null);
    }
  }

  private close(book: TickerBook, b: number, s: number, at: number, closeBuyPrice: number | null = null, closeSellPrice: number | null = null): void {
    const r = book.routes;
    const i = routeIndex(b, s);
    const openedAt = r[i + OPENED] ?? at;
    r[i + OPENED] = NaN;
    this.options.onRouteEnded?.(routeKey(book, b, s), at);
    // Opened and closed at one instant: two quotes of one batch passing each other, which nobody could act on.
    if (at <= openedAt) return;
    this.options.onEpisodeClosed?.({
      ticker: book.ticker,
      buyExchange: EXCHANGE_NAMES[b] ?? FIRST_EXCHANGE,
      sellExchange: EXCHANGE_NAMES[s] ?? FIRST_EXCHANGE,
      openedAt,
      closedAt: at,
      peakGrossPercent: r[i + PEAK] ?? 0,
      peakBuyPrice: r[i + PEAK_ASK] ?? 0,
      peakSellPrice: r[i + PEAK_BID] ?? 0,
      closeBuyPrice,
      closeSellPrice,
    });
  }
}

const routeKey = (book: TickerBook, b: number, s: number): RouteKey => ({
  ticker: book.ticker,
  buyExchange: EXCHANGE_NAMES[b] ?? FIRST_EXCHANGE,
  sellExchange: EXCHANGE_NAMES[s] ?? FIRST_EXCHANGE,
});

const routeIndex = (b: number, s: number): number => (b * EXCHANGE_COUNT + s) * ROUTE_FIELDS;
/**
 * The `opportunities` rule's "exceeds ARBITRAGE_MIN_PROFIT_PERCENT", on the figure AS EMITTED (rounded to 8 decimals),
 * so no event ever shows a profit at or below the threshold. This runs on every tick, so it is
 * decided in doubles, without allocating, whenever doubles cannot be wrong: everywhere but within
 * about 5e-9 % of the threshold, where the exact decimal figure decides (a tick exactly at the
 * threshold, e.g. ask 0.12 and bid 0.12012: 0.1 exactly, 0.1000000000000075 in doubles, is not
 * an opportunity at 0.1).
 */
export function exceedsThreshold(profit: number, ask: number, bid: number, minProfitPercent: number): boolean {
  const scale = ((Math.abs(bid) + ask) / ask) * 100;
  return (
    thresholdFast(profit, scale, minProfitPercent, PERCENT_DECIMALS) ??
    roundsAbove(exactProfitPercent(ask, bid), minProfitPercent, PERCENT_DECIMALS)
  );
}

/**
 * The one test of "is this route an opportunity", shared by `best` and the episodes so both agree
 * on every tick: a positive ask, a finite spread (an ask so small that the spread overflows a
 * double is a broken quote) and a spread that exceeds the threshold as emitted.
 */
function opens(profit: number, ask: number, bid: number, minProfitPercent: number): boolean {
  // Most routes are far below the threshold: answered with one comparison. Exact, because below
  // the threshold the doubles' error is far smaller than this margin: for a bid ≥ 0 the error
  // scale (|bid| + ask) ÷ ask × 100 is the spread + 200, so under 1e-12 × (threshold + 200).
  if (!(profit > minProfitPercent - BELOW_MARGIN)) return false;
  return ask > 0 && Number.isFinite(profit) && exceedsThreshold(profit, ask, bid, minProfitPercent);
}

const BELOW_MARGIN = 1e-6;

const exactProfitPercent = (ask: number, bid: number) => dec(bid).minus(ask).div(ask).times(100);

/**
 * `profitPercentAskBid` as emitted (README "Money and percent figures"): computed in decimal from
 * the two prices and rounded once. Called per emitted event (at most one per symbol per 200 ms),
 * never per tick.
 */
export function profitPercentOf(buyPrice: number, sellPrice: number): number {
  return roundPercent(exactProfitPercent(buyPrice, sellPrice));
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
