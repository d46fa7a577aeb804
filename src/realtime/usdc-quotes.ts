import type { ExchangeName } from '../market-model/exchanges.js';
import { venueOf } from '../venues/registry.js';
import { type QuoteConversion, type RateQuote, USDC_USDT, quoteInUsdt, usdcUsdtRate } from './quote-currency.engine.js';
import type { SpotQuote } from './arbitrage-detector.engine.js';

/** The quotes the rate is read from: a venue's latest spot quote of a ticker. */
export interface SpotQuoteSource {
  get(exchange: ExchangeName, market: 'SPOT', ticker: string): { bid: number; ask: number; receivedAt: number } | undefined;
}

/**
 * Brings a USDC venue's spot quotes (its folder's `quoteCurrency: 'USDC'`, tickers `BASE-USDC`)
 * beside the USDT venues' `BASE-USDT` for the detector, through the USDC/USDT rate the watched
 * USDT venues publish (quote-currency.engine.ts), and remembers each conversion for the event. A
 * USDC quote with no rate known is no quote: it is never compared 1:1.
 */
export class UsdcQuotes {
  private readonly usdc: ReadonlySet<ExchangeName>;
  private readonly rateVenues: readonly ExchangeName[];
  private readonly conversions = new Map<string, QuoteConversion>();

  constructor(exchanges: readonly ExchangeName[], private readonly book: SpotQuoteSource, private readonly staleMs: number) {
    this.usdc = new Set(exchanges.filter((e) => venueOf(e).quoteCurrency === 'USDC'));
    this.rateVenues = exchanges.filter((e) => !this.usdc.has(e));
  }

  /** True when a venue's spot tickers are USDC ones that need the rate. */
  isUsdc(exchange: ExchangeName): boolean {
    return this.usdc.has(exchange);
  }

  /**
   * The quote as the detector compares it: a USDT venue's as it is; a USDC venue's `BASE-USDC`
   * as `BASE-USDT` at the rate; null for a USDC quote with no rate, or of another quote currency.
   */
  forDetector(tick: SpotQuote, now: number): SpotQuote | null {
    if (!this.usdc.has(tick.exchange)) return tick;
    if (!tick.ticker.endsWith('-USDC')) return null;
    const ticker = `${tick.ticker.slice(0, -'-USDC'.length)}-USDT`;
    const converted = quoteInUsdt(tick.exchange, tick.bid, tick.ask, this.rate(now));
    if (!converted) {
      this.conversions.delete(keyOf(tick.exchange, ticker));
      return null;
    }
    this.conversions.set(keyOf(tick.exchange, ticker), converted.conversion);
    return { exchange: tick.exchange, ticker, bid: converted.bid, ask: converted.ask, receivedAt: tick.receivedAt };
  }

  /** The conversions behind a route's two prices (none when both venues quote USDT). */
  conversionsOf(ticker: string, buyExchange: ExchangeName, sellExchange: ExchangeName): QuoteConversion[] {
    const out: QuoteConversion[] = [];
    for (const exchange of [buyExchange, sellExchange]) {
      const found = this.usdc.has(exchange) ? this.conversions.get(keyOf(exchange, ticker)) : undefined;
      if (found) out.push(found);
    }
    return out;
  }

  private rate(now: number) {
    const quotes: RateQuote[] = [];
    for (const exchange of this.rateVenues) {
      const q = this.book.get(exchange, 'SPOT', USDC_USDT);
      if (q) quotes.push({ exchange, bid: q.bid, ask: q.ask, receivedAt: q.receivedAt });
    }
    return usdcUsdtRate(quotes, now, this.staleMs);
  }
}

const keyOf = (exchange: ExchangeName, ticker: string): string => `${exchange}|${ticker}`;

/** How a transfer to or from an on-chain venue of the route is treated (its folder's `onChain`), or null. */
export function transferNoteOf(buyExchange: ExchangeName, sellExchange: ExchangeName): string | null {
  return venueOf(buyExchange).onChain?.transfer ?? venueOf(sellExchange).onChain?.transfer ?? null;
}
