/** The five supported exchanges, by the service's own names (rules: tickers). */
export const EXCHANGE_NAMES = ['binance', 'bybit', 'okx', 'gate', 'bitget'] as const;
export type ExchangeName = (typeof EXCHANGE_NAMES)[number];

export const MARKETS = ['SPOT', 'FUTURES'] as const;
export type Market = (typeof MARKETS)[number];

export function isExchangeName(value: string): value is ExchangeName {
  return (EXCHANGE_NAMES as readonly string[]).includes(value);
}

/** Case-insensitive lookup; null when the name is not one of the five. */
export function parseExchangeName(value: string): ExchangeName | null {
  const lower = value.trim().toLowerCase();
  return isExchangeName(lower) ? lower : null;
}
