/**
 * Ticker forms (rules: tickers): canonical `BASE-QUOTE` upper case (`BTC-USDT`); lookers and
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

/** A venue's base name read as the asset it counts and how many units of it one quote is for. */
export interface BaseUnit {
  asset: string;
  /** Units of `asset` per quoted unit: 1000 for `1000PEPE`, 1 for a plain base. */
  multiplier: number;
  /** Set when the name carries a number that is no lot size the venues use: the market is left out, not guessed. */
  unknownLot?: string;
}

// Venues list low-priced coins in lots so prices keep enough digits, always a power of ten from
// a thousand up, in front of the name or behind it: binance `1000PEPE`, `1000SHIB`, `1MBABYDOGE`,
// `1000000MOG`; bybit `1000PEPE`, `10000LADYS`, `10000000AIDOGE`, `1000000BABYDOGE` and, behind the
// name, `SHIB1000`; some write the factor as `X1000` behind it. ccxt 4.5.84 passes the venue's
// base through unchanged (market.base). A coin whose own name starts with one or two digits
// (`1INCH`, `0G`, `2Z`) is no lot; a longer number that is not such a power (`100PEPE`,
// `500SATS`) would be one of unknown size, and comparing it at face value would be wrong.
const LOT_PREFIX = /^(10{3,7}(?=[A-Z])|1M(?=[A-Z][A-Z0-9]{2}))([A-Z][A-Z0-9]*)$/;
const LOT_SUFFIX = /^([A-Z][A-Z0-9]*?[A-Z])X?(10{3,7})$/;
const NUMERIC_PREFIX = /^(\d{3,})([A-Z][A-Z0-9]*)$/;

/** `1000PEPE` → PEPE × 1000, `SHIB1000` → SHIB × 1000, `1MBABYDOGE` → BABYDOGE × 1,000,000, `BTC` → BTC × 1. */
export function baseUnitOf(base: string): BaseUnit {
  const prefixed = LOT_PREFIX.exec(base);
  if (prefixed) return { asset: prefixed[2] ?? base, multiplier: prefixed[1] === '1M' ? 1_000_000 : Number(prefixed[1]) };
  const suffixed = LOT_SUFFIX.exec(base);
  if (suffixed) return { asset: suffixed[1] ?? base, multiplier: Number(suffixed[2]) };
  const numeric = NUMERIC_PREFIX.exec(base);
  if (numeric) {
    return { asset: base, multiplier: 1, unknownLot: `unknown lot: ${base} starts with ${numeric[1]}, which is no lot size the venues use (1000 to 10000000 or 1M)` };
  }
  return { asset: base, multiplier: 1 };
}

/** Why a ccxt symbol is left out for its lot name, or undefined when its lot (if any) is known. */
export function unknownLotOfCcxtSymbol(symbol: string): string | undefined {
  return baseUnitOf(symbol.split('/')[0] ?? symbol).unknownLot;
}

/**
 * Canonical ticker from a ccxt symbol (`BTC/USDT` or `BTC/USDT:USDT`), per unit of the asset:
 * `1000PEPE/USDT:USDT` is `PEPE-USDT` (its prices divided by `multiplierOfCcxtSymbol`).
 */
export function fromCcxtSymbol(symbol: string): string {
  const [pair] = symbol.split(':');
  const [base = '', quote = ''] = (pair ?? symbol).split('/');
  return `${baseUnitOf(base).asset}-${quote}`;
}

/** Units of the asset one price of this ccxt symbol is for (1000 for `1000PEPE/USDT:USDT`). */
export function multiplierOfCcxtSymbol(symbol: string): number {
  return baseUnitOf(symbol.split('/')[0] ?? symbol).multiplier;
}
