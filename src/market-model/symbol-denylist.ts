import { EXCHANGE_LIST, type ExchangeName, parseExchangeName } from './exchanges.js';
import { toCanonicalTicker } from './ticker.js';

/** One `SYMBOL_DENYLIST` entry: an asset (or one ticker) left out everywhere, or on one exchange. */
export interface DenyEntry {
  readonly exchange?: ExchangeName;
  /** The base asset (`PEPE`), matching every quote, or a canonical ticker (`PEPE-USDT`). */
  readonly symbol: string;
}

/**
 * Parses `SYMBOL_DENYLIST`: comma-separated `TICKER` or `exchange:TICKER`, where a ticker is a
 * base asset (`PEPE`, every quote) or one pair with a dash (`PEPE-USDT`), any case. Answers
 * the entries or the first bad item's message.
 */
export function parseDenylist(raw: string): { ok: true; entries: DenyEntry[] } | { ok: false; message: string } {
  const entries: DenyEntry[] = [];
  for (const item of raw.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const colon = item.indexOf(':');
    const exchangeText = colon >= 0 ? item.slice(0, colon) : null;
    const exchange = exchangeText === null ? undefined : parseExchangeName(exchangeText);
    if (exchange === null) return { ok: false, message: `SYMBOL_DENYLIST: "${item}" names no known exchange (${EXCHANGE_LIST})` };
    const symbolText = (colon >= 0 ? item.slice(colon + 1) : item).trim().toUpperCase();
    // Without a dash it is a base asset: `WBTC` must not be read as the pair W/BTC.
    const symbol = symbolText.includes('-') ? toCanonicalTicker(symbolText) : /^[A-Z0-9]{1,20}$/.test(symbolText) ? symbolText : null;
    if (symbol === null) return { ok: false, message: `SYMBOL_DENYLIST: "${item}" is not a ticker (PEPE, PEPE-USDT or exchange:PEPE)` };
    entries.push(exchange ? { exchange, symbol } : { symbol });
  }
  return { ok: true, entries };
}

/** Whether a denylist leaves this exchange's ticker out. */
export function isDenied(entries: readonly DenyEntry[], exchange: ExchangeName, ticker: string): boolean {
  const base = ticker.slice(0, ticker.indexOf('-'));
  return entries.some((e) => (e.exchange === undefined || e.exchange === exchange) && (e.symbol === ticker || e.symbol === base));
}
