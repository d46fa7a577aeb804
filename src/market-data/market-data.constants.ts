/** Injection tokens of the market-data core. */
export const MARKET_DATA_SOURCE = Symbol('MARKET_DATA_SOURCE');
export const QUOTE_TICK_BUS = Symbol('QUOTE_TICK_BUS');
export const MARKET_CLOCK = Symbol('MARKET_CLOCK');
export const EXCHANGE_CLIENT_FACTORY = Symbol('EXCHANGE_CLIENT_FACTORY');

/** The `staleness` rule: a quote whose last tick is older than this is stale. */
export const QUOTE_STALE_MS = 10_000;
