import { describe, expect, it } from 'vitest';
import { FundingRateBook } from './funding-rate-book.js';

describe('FundingRateBook', () => {
  it('answers the latest collection’s rate per perpetual, null when unknown', () => {
    const book = new FundingRateBook();
    expect(book.rate('binance', 'BTC-USDT')).toBeNull();
    book.replace([
      { exchange: 'binance', ticker: 'BTC-USDT', fundingRate: 0.0001 },
      { exchange: 'okx', ticker: 'BTC-USDT', fundingRate: -0.00025 },
      { exchange: 'gate', ticker: 'BTC-USDT', fundingRate: null },
    ]);
    expect(book.rate('binance', 'BTC-USDT')).toBe(0.0001);
    expect(book.rate('okx', 'BTC-USDT')).toBe(-0.00025);
    expect(book.rate('gate', 'BTC-USDT')).toBeNull();
    book.replace([{ exchange: 'okx', ticker: 'BTC-USDT', fundingRate: 0 }]);
    expect(book.rate('binance', 'BTC-USDT')).toBeNull();
    expect(book.rate('okx', 'BTC-USDT')).toBe(0);
  });
});
