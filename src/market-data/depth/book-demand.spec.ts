import { describe, expect, it } from 'vitest';
import { BookDemand, bookKeyOf } from './book-demand.js';

describe('BookDemand', () => {
  const key = (ticker: string, market = 'SPOT', exchange = 'okx'): string => bookKeyOf(exchange, market, ticker);

  it('holds a book for holdMs after its last request', () => {
    const d = new BookDemand({ holdMs: 1000, max: 5 });
    expect(d.demand(key('BTC-USDT'), 0)).toBe(true);
    expect(d.sweep(999)).toEqual([]);
    expect(d.demand(key('BTC-USDT'), 500)).toBe(true);
    expect(d.sweep(1499)).toEqual([]);
    expect(d.sweep(1500)).toEqual([key('BTC-USDT')]);
    expect(d.has(key('BTC-USDT'))).toBe(false);
  });

  it('refuses a new book past max, and still renews one it holds', () => {
    const d = new BookDemand({ holdMs: 1000, max: 2 });
    expect(d.demand(key('A-USDT'), 0)).toBe(true);
    expect(d.demand(key('B-USDT'), 0)).toBe(true);
    expect(d.demand(key('C-USDT'), 0)).toBe(false);
    expect(d.demand(key('A-USDT'), 10)).toBe(true);
    expect(d.size).toBe(2);
    d.sweep(1000);
    expect(d.demand(key('C-USDT'), 1001)).toBe(true);
  });

  it('lists the tickers of one exchange and market type', () => {
    const d = new BookDemand({ holdMs: 1000, max: 10 });
    d.demand(key('ETH-USDT'), 0);
    d.demand(key('BTC-USDT'), 0);
    d.demand(key('BTC-USDT', 'FUTURES'), 0);
    d.demand(key('SOL-USDT', 'SPOT', 'gate'), 0);
    expect(d.tickers('okx', 'SPOT')).toEqual(['BTC-USDT', 'ETH-USDT']);
    expect(d.tickers('okx', 'FUTURES')).toEqual(['BTC-USDT']);
    expect(d.tickers('gate', 'FUTURES')).toEqual([]);
  });
});
