import type { MarketInterface } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { symbolsByTicker, toListings } from './ccxt-markets.js';

const market = (symbol: string): MarketInterface =>
  ({ symbol, active: true, spot: !symbol.includes(':'), swap: symbol.includes(':'), linear: true, settle: 'USDT' }) as MarketInterface;
const markets = (...symbols: string[]): Record<string, MarketInterface> => Object.fromEntries(symbols.map((s) => [s, market(s)]));

describe('lot-named markets (issue 17)', () => {
  it('lists binance 1000PEPE, 1000SHIB and 1MBABYDOGE perpetuals under the spot asset', () => {
    const listings = toListings(markets('PEPE/USDT', '1000PEPE/USDT:USDT', '1000SHIB/USDT:USDT', '1MBABYDOGE/USDT:USDT'));
    expect(listings).toEqual([
      { market: 'SPOT', ticker: 'PEPE-USDT' },
      { market: 'FUTURES', ticker: 'PEPE-USDT' },
      { market: 'FUTURES', ticker: 'SHIB-USDT' },
      { market: 'FUTURES', ticker: 'BABYDOGE-USDT' },
    ]);
  });

  it('watches the venue symbol of a ticker, the per-unit one when both are listed', () => {
    const symbols = symbolsByTicker(markets('PEPE/USDT', '1000PEPE/USDT:USDT', 'SHIB1000/USDT:USDT', 'SHIB/USDT:USDT', 'BTC/USDT:USDT'));
    expect(Object.fromEntries(symbols)).toEqual({
      'SPOT|PEPE-USDT': 'PEPE/USDT',
      'FUTURES|PEPE-USDT': '1000PEPE/USDT:USDT',
      'FUTURES|SHIB-USDT': 'SHIB/USDT:USDT',
      'FUTURES|BTC-USDT': 'BTC/USDT:USDT',
    });
  });
});
