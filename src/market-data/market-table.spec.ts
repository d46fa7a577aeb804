import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { MarketTable } from './market-table.js';

describe('MarketTable', () => {
  it('assigns one index per market, in order of first use, and keeps it', () => {
    const table = new MarketTable();
    const btc = { exchange: 'bybit', market: 'SPOT', ticker: 'BTC-USDT' } as const;
    expect(table.indexOf(btc)).toBe(0);
    expect(table.indexOf({ ...btc, market: 'FUTURES' })).toBe(1);
    expect(table.indexOf({ ...btc, exchange: 'gate' })).toBe(2);
    expect(table.indexOf({ ...btc })).toBe(0);
    expect(table.size).toBe(3);
    expect(table.at(1)).toEqual({ exchange: 'bybit', market: 'FUTURES', ticker: 'BTC-USDT', exchangeIndex: EXCHANGE_NAMES.indexOf('bybit') });
    expect(table.exchangeIndexAt(2)).toBe(EXCHANGE_NAMES.indexOf('gate'));
    expect(table.exchangeIndexAt(3)).toBe(-1);
    expect(table.at(3)).toBeUndefined();
    expect(table.encoded(1)).toEqual({ 1: 'bybit|FUTURES|BTC-USDT', 2: 'gate|SPOT|BTC-USDT' });
  });

  it('takes indexes assigned elsewhere, with gaps, and forgets them all on clear', () => {
    const table = new MarketTable();
    table.define(4, { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' });
    table.define(-1, { exchange: 'okx', market: 'SPOT', ticker: 'X-USDT' });
    table.define(1.5, { exchange: 'okx', market: 'SPOT', ticker: 'Y-USDT' });
    expect(table.size).toBe(5);
    expect(table.at(4)?.ticker).toBe('ETH-USDT');
    expect(table.at(0)).toBeUndefined();
    expect(table.indexOf({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' })).toBe(4);
    expect(table.encoded()).toEqual({ 4: 'okx|SPOT|ETH-USDT' });
    table.clear();
    expect(table.size).toBe(0);
    expect(table.at(4)).toBeUndefined();
    expect(table.indexOf({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' })).toBe(0);
  });
});
