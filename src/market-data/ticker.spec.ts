import { describe, expect, it } from 'vitest';
import { fromCcxtSymbol, parseTicker, toCanonicalTicker, toCompactTicker } from './ticker.js';

describe('ticker normaliser (D1)', () => {
  it.each([
    ['BTC-USDT', 'BTC-USDT'],
    ['btc-usdt', 'BTC-USDT'],
    ['BTCUSDT', 'BTC-USDT'],
    ['btcusdt', 'BTC-USDT'],
    ['  ethbtc ', 'ETH-BTC'],
    ['1000PEPEUSDT', '1000PEPE-USDT'],
    ['USDTBRL', 'USDT-BRL'],
  ])('%s -> %s', (input, expected) => {
    expect(toCanonicalTicker(input)).toBe(expected);
  });

  it('matches the longest known quote first', () => {
    expect(parseTicker('BTCFDUSD')).toEqual({ base: 'BTC', quote: 'FDUSD' });
    expect(parseTicker('BTCTUSD')).toEqual({ base: 'BTC', quote: 'TUSD' });
    expect(parseTicker('ETHUSDC')).toEqual({ base: 'ETH', quote: 'USDC' });
  });

  it.each(['', 'USDT', 'BTC', 'BTC-', '-USDT', 'BTC-XYZ', 'BTC/USDT', 'BTC_USDT', 'BTC-USDT-X', 'B TC'])(
    'rejects %j',
    (input) => {
      expect(parseTicker(input)).toBeNull();
    },
  );

  it('gives the compact form stored by lookers and favorites', () => {
    expect(toCompactTicker('btc-usdt')).toBe('BTCUSDT');
    expect(toCompactTicker('nope')).toBeNull();
  });

  it('reads ccxt spot and perpetual symbols', () => {
    expect(fromCcxtSymbol('BTC/USDT')).toBe('BTC-USDT');
    expect(fromCcxtSymbol('BTC/USDT:USDT')).toBe('BTC-USDT');
  });
});
