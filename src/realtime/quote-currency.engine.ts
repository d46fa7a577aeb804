import { Dec, roundPrice } from '../common/money/money.js';
import { EXCHANGE_NAMES, type ExchangeName } from '../market-model/exchanges.js';

/*
 * Comparing a USDC-quoted market with USDT-quoted ones (a venue whose folder says
 * `quoteCurrency: 'USDC'`): its prices are turned into USDT through a USDC/USDT rate the venues
 * publish (the mid of a USDC-USDT spot book on a watched venue), never taken 1:1, and the event
 * shows the rate and where it came from. Pure and decimal (README "Money and percent figures").
 */

/** The spot ticker whose mid is the rate: USDT per USDC. */
export const USDC_USDT = 'USDC-USDT';

/** A USDC-USDT spot quote of one venue, as the quote book holds it. */
export interface RateQuote {
  readonly exchange: ExchangeName;
  readonly bid: number;
  readonly ask: number;
  /** Local receive time, Unix ms. */
  readonly receivedAt: number;
}

/** USDT per USDC, and the book it was read from. */
export interface UsdcUsdtRate {
  /** The book's mid, decimal: (bid + ask) ÷ 2. */
  readonly rate: number;
  readonly exchange: ExchangeName;
  readonly ticker: typeof USDC_USDT;
  readonly bid: number;
  readonly ask: number;
  readonly receivedAt: number;
}

const ORDER = new Map<ExchangeName, number>(EXCHANGE_NAMES.map((name, i) => [name, i]));

/**
 * The rate from the fresh USDC-USDT books (at most `staleMs` old at `now`, both sides priced and
 * not crossed): the narrowest book's mid, ties to the venue listed first (the registry's order).
 * Null when no venue publishes a usable one: the caller then compares nothing, never 1:1.
 */
export function usdcUsdtRate(quotes: readonly RateQuote[], now: number, staleMs: number): UsdcUsdtRate | null {
  let best: { quote: RateQuote; width: Dec } | undefined;
  for (const quote of quotes) {
    if (!(quote.bid > 0) || !(quote.ask >= quote.bid) || now - quote.receivedAt > staleMs) continue;
    const width = new Dec(quote.ask).minus(quote.bid);
    const first = (ORDER.get(quote.exchange) ?? 0) < (ORDER.get(best?.quote.exchange ?? quote.exchange) ?? 0);
    if (!best || width.lt(best.width) || (width.eq(best.width) && first)) best = { quote, width };
  }
  if (!best) return null;
  const { quote } = best;
  const rate = roundPrice(new Dec(quote.bid).plus(quote.ask).div(2));
  return { rate, exchange: quote.exchange, ticker: USDC_USDT, bid: quote.bid, ask: quote.ask, receivedAt: quote.receivedAt };
}

/** A price in USDC as USDT at the rate, rounded once to the price decimals. */
export function usdcToUsdt(priceUsdc: number, rate: number): number {
  return roundPrice(new Dec(priceUsdc).times(rate));
}

/**
 * A lot's price per unit of the asset (`kPEPE` and `1000PEPE` quote 1,000 PEPE): price ÷ units,
 * in decimal, rounded once to the price decimals.
 */
export function perUnit(lotPrice: number, units: number): number {
  return roundPrice(new Dec(lotPrice).div(units));
}

/** How one side of an opportunity was brought into USDT, as the event shows it. */
export interface QuoteConversion {
  readonly exchange: ExchangeName;
  readonly from: 'USDC';
  readonly to: 'USDT';
  /** USDT per USDC, and the venue and book it was read from. */
  readonly rate: number;
  readonly rateSource: { readonly exchange: ExchangeName; readonly ticker: typeof USDC_USDT; readonly bid: number; readonly ask: number };
  /** The venue's own bid and ask, in USDC per unit of the asset. */
  readonly bidUsdc: number;
  readonly askUsdc: number;
}

/** A USDC venue's quote in USDT, with the conversion the event carries; null without a rate (never 1:1). */
export function quoteInUsdt(
  exchange: ExchangeName, bidUsdc: number, askUsdc: number, rate: UsdcUsdtRate | null,
): { bid: number; ask: number; conversion: QuoteConversion } | null {
  if (rate === null) return null;
  return {
    bid: usdcToUsdt(bidUsdc, rate.rate),
    ask: usdcToUsdt(askUsdc, rate.rate),
    conversion: {
      exchange, from: 'USDC', to: 'USDT', rate: rate.rate,
      rateSource: { exchange: rate.exchange, ticker: USDC_USDT, bid: rate.bid, ask: rate.ask },
      bidUsdc, askUsdc,
    },
  };
}
