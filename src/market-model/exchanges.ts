import { DEFAULT_EXCHANGES, EXCHANGE_NAMES, type ExchangeName, FIRST_EXCHANGE } from '../venues/registry.js';

/** The supported exchanges, by the service's own names, in the registry's order (rules: tickers). */
export { DEFAULT_EXCHANGES, EXCHANGE_NAMES, type ExchangeName, FIRST_EXCHANGE };

/** The names as messages list them: `binance, bybit, …`. */
export const EXCHANGE_LIST = EXCHANGE_NAMES.join(', ');

export const MARKETS = ['SPOT', 'FUTURES'] as const;
export type Market = (typeof MARKETS)[number];

export function isExchangeName(value: string): value is ExchangeName {
  return (EXCHANGE_NAMES as readonly string[]).includes(value);
}

/** Case-insensitive lookup; null when the name is not a supported venue. */
export function parseExchangeName(value: string): ExchangeName | null {
  const lower = value.trim().toLowerCase();
  return isExchangeName(lower) ? lower : null;
}
