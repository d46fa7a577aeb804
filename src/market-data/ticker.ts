/**
 * Ticker forms (DECISIONS D1): canonical `BASE-QUOTE` upper case (`BTC-USDT`); lookers and
 * favorites store `BASEQUOTE` (`BTCUSDT`); ccxt uses `BTC/USDT` (spot) and `BTC/USDT:USDT`
 * (USDT perpetual).
 */
export const KNOWN_QUOTES = [
  'USDT', 'USDC', 'FDUSD', 'BUSD', 'TUSD', 'DAI', 'BTC', 'ETH', 'BNB', 'BRL', 'EUR', 'TRY',
] as const;

// Longest match first, so `…FDUSD` is not read as `…F` + `DUSD`, nor `…TUSD` as `…T` + `USD…`.
const QUOTES_LONGEST_FIRST = [...KNOWN_QUOTES].sort((a, b) => b.length - a.length);
const QUOTE_SET: ReadonlySet<string> = new Set(KNOWN_QUOTES);
const ASSET = /^[A-Z0-9]{1,20}$/;

export interface TickerParts {
  base: string;
  quote: string;
}

/** Parses `BTC-USDT` or `btcusdt` (any case); null when it is neither form. */
export function parseTicker(input: string): TickerParts | null {
  const value = input.trim().toUpperCase();
  const dash = value.indexOf('-');
  if (dash >= 0) {
    const base = value.slice(0, dash);
    const quote = value.slice(dash + 1);
    return ASSET.test(base) && QUOTE_SET.has(quote) ? { base, quote } : null;
  }
  if (!ASSET.test(value)) return null;
  for (const quote of QUOTES_LONGEST_FIRST) {
    if (value.length > quote.length && value.endsWith(quote)) {
      return { base: value.slice(0, -quote.length), quote };
    }
  }
  return null;
}

/** `BTC-USDT`, or null. */
export function toCanonicalTicker(input: string): string | null {
  const parts = parseTicker(input);
  return parts ? `${parts.base}-${parts.quote}` : null;
}

/** `BTCUSDT`, or null. */
export function toCompactTicker(input: string): string | null {
  const parts = parseTicker(input);
  return parts ? `${parts.base}${parts.quote}` : null;
}

export function toCcxtSpotSymbol({ base, quote }: TickerParts): string {
  return `${base}/${quote}`;
}

export function toCcxtPerpSymbol({ base, quote }: TickerParts): string {
  return `${base}/${quote}:${quote}`;
}

/** Canonical ticker from a ccxt symbol (`BTC/USDT` or `BTC/USDT:USDT`). */
export function fromCcxtSymbol(symbol: string): string {
  const [pair] = symbol.split(':');
  return (pair ?? symbol).replace('/', '-');
}
