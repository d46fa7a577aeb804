/** Injection tokens and fixed figures of the calculator feature. */
export const LATEST_SAMPLE_READER = Symbol('LATEST_SAMPLE_READER');

export const CALCULATOR_STREAM_NAME = 'calculator';

/** One event per second (rules: cadence). */
export const CALCULATOR_TICK_MS = 1000;

/**
 * Keys (ticker × exchange) each market-data cache keeps at most: well above the sampled
 * universe (300 symbols × 5 exchanges), so in practice only expiry evicts, yet a flood of
 * distinct keys cannot grow memory without bound.
 */
export const MARKET_CACHE_MAX_ENTRIES = 5000;

export const CALCULATOR_NOT_FOUND = 'calculator not found';
