import { DEFAULT_EXCHANGES, EXCHANGE_NAMES, type ExchangeName, FIRST_EXCHANGE } from '../venues/registry.js';

/** The supported exchanges, by the service's own names, in the registry's order (rules: tickers). */
export { DEFAULT_EXCHANGES, EXCHANGE_NAMES, type ExchangeName, FIRST_EXCHANGE };

/** The names as messages list them: `binance, bybit, …`. */
export const EXCHANGE_LIST = EXCHANGE_NAMES.join(', ');

/**
 * The 400 text of a field that must name a watched venue: it lists the configured venues, so the
 * default EXCHANGES gives the contract's text whatever the registry holds (rules: tickers).
 */
export const oneOfExchanges = (field: string, configured: readonly string[]): string => `${field} must be one of ${configured.join(', ')}`;

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

/** Case-insensitive lookup among the configured venues; null for a non-string or any other name. */
export function parseConfiguredExchange(value: unknown, configured: readonly ExchangeName[]): ExchangeName | null {
  const name = typeof value === 'string' ? parseExchangeName(value) : null;
  return name !== null && configured.includes(name) ? name : null;
}
