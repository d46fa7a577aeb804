import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGES, oneOfExchanges, parseConfiguredExchange } from './exchanges.js';

describe('configured venues (rules: tickers)', () => {
  it('the default list gives the contract text', () => {
    expect(oneOfExchanges('exchange', DEFAULT_EXCHANGES)).toBe('exchange must be one of binance, bybit, okx, gate, bitget');
  });

  it('a name is matched in any case among the configured venues only', () => {
    expect(parseConfiguredExchange(' OKX ', ['binance', 'okx'])).toBe('okx');
    expect(parseConfiguredExchange('bybit', ['binance', 'okx'])).toBeNull();
    expect(parseConfiguredExchange('nowhere', ['binance', 'okx'])).toBeNull();
    expect(parseConfiguredExchange(7, ['binance', 'okx'])).toBeNull();
  });
});
