import { describe, expect, it } from 'vitest';
import { AppError } from '../common/errors/app-error.js';
import { type FilterableEvent, MAX_FILTER_TICKERS, matchesFilter, parseOpportunityFilter } from './opportunity-filter.js';

const EXCHANGES = ['binance', 'bybit', 'okx'];
const parse = (query: Record<string, unknown>) => parseOpportunityFilter(query, EXCHANGES);
const failure = (query: Record<string, unknown>): string => {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
  throw new Error('no failure');
};
const event: FilterableEvent = {
  ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', profitPercentAskBid: 0.3, netProfitPercent: 0.05, transferable: true, size: { maxSizeUsdt: 2500 },
};

describe('opportunity stream filters', () => {
  it('no parameter is no filter: the unfiltered `opportunities` stream', () => {
    expect(parse({})).toBeNull();
    // `transferable=false` restricts nothing either.
    expect(parse({ transferable: 'false' })).toBeNull();
  });

  it('bounds are inclusive: an event exactly at minProfit / minNetProfit passes, one just under does not', () => {
    expect(matchesFilter(parse({ minProfit: '0.3' })!, event)).toBe(true);
    expect(matchesFilter(parse({ minProfit: '0.3001' })!, event)).toBe(false);
    expect(matchesFilter(parse({ minNetProfit: '0.05' })!, event)).toBe(true);
    expect(matchesFilter(parse({ minNetProfit: '0.0501' })!, event)).toBe(false);
    expect(matchesFilter(parse({ minNetProfit: '-1.5' })!, { ...event, netProfitPercent: -1.5 })).toBe(true);
    expect(matchesFilter(parse({ minNetProfit: '-1.5' })!, { ...event, netProfitPercent: -1.5001 })).toBe(false);
  });

  it('transferable=true keeps only transferable events', () => {
    const f = parse({ transferable: 'TRUE' })!;
    expect(matchesFilter(f, event)).toBe(true);
    expect(matchesFilter(f, { ...event, transferable: false })).toBe(false);
  });

  it('exchanges: both the buy and the sell exchange must be listed', () => {
    expect(matchesFilter(parse({ exchanges: 'OKX, binance' })!, event)).toBe(true);
    expect(matchesFilter(parse({ exchanges: 'binance,bybit' })!, event)).toBe(false);
  });

  it('tickers in either form, any case', () => {
    expect(matchesFilter(parse({ tickers: 'ethusdt,BTC-USDT' })!, event)).toBe(true);
    expect(matchesFilter(parse({ tickers: 'ETH-USDT' })!, event)).toBe(false);
  });

  it('every condition must hold', () => {
    const f = parse({ minProfit: '0.2', minNetProfit: '0', transferable: 'true', exchanges: 'binance,okx', tickers: 'BTCUSDT' })!;
    expect(matchesFilter(f, event)).toBe(true);
    expect(matchesFilter(f, { ...event, netProfitPercent: -0.01 })).toBe(false);
  });

  it('equal filters share one key whatever the order, case or form', () => {
    const a = parse({ exchanges: 'okx,binance', tickers: 'BTC-USDT,ethusdt', minProfit: '0.50' })!;
    const b = parse({ tickers: 'ETH-USDT,btcusdt', minProfit: '0.5', exchanges: 'BINANCE,okx,okx' })!;
    expect(a.key).toBe(b.key);
    expect(parse({ minProfit: '0.5' })!.key).not.toBe(parse({ minNetProfit: '0.5' })!.key);
  });

  it('range boundaries of the numbers', () => {
    for (const ok of ['0', '100', '0.0', '1e1']) expect(parse({ minProfit: ok })).not.toBeNull();
    for (const ok of ['-100', '100', '-0.5']) expect(parse({ minNetProfit: ok })).not.toBeNull();
    for (const bad of ['-0.0001', '100.0001', '', 'abc', '0x10', 'NaN', 'Infinity', ['1', '2']]) {
      expect(failure({ minProfit: bad })).toBe('minProfit must be a number from 0 to 100');
    }
    for (const bad of ['-100.0001', '100.5', '', '1,5']) {
      expect(failure({ minNetProfit: bad })).toBe('minNetProfit must be a number from -100 to 100');
    }
  });

  it('explicit messages for every other invalid value, the first failing parameter reported', () => {
    expect(failure({ transferable: 'yes' })).toBe('transferable must be true or false');
    expect(failure({ transferable: '' })).toBe('transferable must be true or false');
    expect(failure({ exchanges: 'binance,gate' })).toBe('exchanges must be a comma list of binance, bybit, okx');
    expect(failure({ exchanges: 'binance,' })).toBe('exchanges must be a comma list of binance, bybit, okx');
    // A route buys on one exchange and sells on another: one name can never match.
    expect(failure({ exchanges: 'binance' })).toBe('exchanges must name at least two exchanges: a route buys on one and sells on another');
    expect(failure({ exchanges: 'okx,OKX' })).toBe('exchanges must name at least two exchanges: a route buys on one and sells on another');
    expect(failure({ exchanges: ['binance', 'okx'] })).toBe('exchanges must be a comma list of binance, bybit, okx');
    expect(failure({ exchanges: 'okx,okx,okx,okx,okx,okx' })).toBe('exchanges must be a comma list of binance, bybit, okx');
    expect(failure({ tickers: 'BTC-XYZ' })).toBe('tickers must be a comma list of at most 100 tickers such as BTC-USDT');
    expect(failure({ tickers: '' })).toBe('tickers must be a comma list of at most 100 tickers such as BTC-USDT');
    expect(failure({ minProfit: 'x', tickers: 'bad' })).toBe('minProfit must be a number from 0 to 100');
  });

  it('at most 100 tickers', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `A${i}-USDT`).join(',');
    expect(parse({ tickers: list(MAX_FILTER_TICKERS) })!.tickers!.size).toBe(100);
    expect(failure({ tickers: list(MAX_FILTER_TICKERS + 1) })).toBe('tickers must be a comma list of at most 100 tickers such as BTC-USDT');
  });

  it('size and minSize: ranges, messages, and minSize against size.maxSizeUsdt, inclusive', () => {
    expect(parse({ size: '10' })?.size).toBe(10);
    expect(parse({ size: '10000000' })?.size).toBe(10_000_000);
    for (const bad of ['9.99', '10000000.01', '', 'abc', '-5', ['100', '200']]) expect(failure({ size: bad })).toBe('size must be a number from 10 to 10000000');
    for (const bad of ['-1', '10000001', '', 'x']) expect(failure({ minSize: bad })).toBe('minSize must be a number from 0 to 10000000');
    expect(failure({ tickers: 'BTC-USDT', size: '1', minSize: 'x' })).toBe('size must be a number from 10 to 10000000');
    expect(matchesFilter(parse({ minSize: '2500' })!, event)).toBe(true);
    expect(matchesFilter(parse({ minSize: '2500.01' })!, event)).toBe(false);
    // An unknown size (a book not held) never passes a minSize.
    expect(matchesFilter(parse({ minSize: '0' })!, { ...event, size: null })).toBe(false);
    // A size alone filters nothing out but is its own group.
    expect(matchesFilter(parse({ size: '5000' })!, { ...event, size: null })).toBe(true);
    expect(parse({ size: '5000' })!.key).not.toBe(parse({ size: '500' })!.key);
    expect(parse({ size: '5000.0', minSize: '1' })!.key).toBe(parse({ minSize: '1.0', size: '5e3' })!.key);
  });
});
