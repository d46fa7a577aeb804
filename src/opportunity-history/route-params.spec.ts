import { describe, expect, it } from 'vitest';
import { parseBacktestRequest, parseRouteParams, parseRouteRecent } from './route-params.js';

const EXCHANGES = ['binance', 'bybit', 'okx', 'gate', 'bitget'];
const valid = { ticker: 'btcusdt', buy: 'Binance', sell: 'okx', days: 7, threshold: 0.3 };
const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('route parameters (rules: errors, windows)', () => {
  it('normalises and applies the defaults', () => {
    expect(parseBacktestRequest(valid, EXCHANGES)).toEqual({
      ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 7, threshold: 0.3, basis: 'net', capital: 1000, transferMinutes: 0, breakdown: 'day',
    });
    expect(parseRouteParams({ ...valid, days: '7', threshold: '0.30', basis: 'GROSS' }, EXCHANGES, 'query')).toMatchObject({
      days: 7, threshold: 0.3, basis: 'gross',
    });
  });

  it('the samples query: the route first, then minutes, an integer from 1 to 1440 given as query text', () => {
    expect(parseRouteRecent({ ticker: 'solusdt', buy: 'OKX', sell: 'bybit', minutes: '60' }, EXCHANGES)).toEqual({ ticker: 'SOL-USDT', buy: 'okx', sell: 'bybit', minutes: 60 });
    expect(parseRouteRecent({ ticker: 'SOL-USDT', buy: 'okx', sell: 'bybit', minutes: '1440' }, EXCHANGES).minutes).toBe(1440);
    for (const minutes of ['0', '1441', '2.5', 'abc', '', undefined]) {
      expect(message(() => parseRouteRecent({ ticker: 'SOL-USDT', buy: 'okx', sell: 'bybit', minutes }, EXCHANGES))).toBe('minutes must be an integer from 1 to 1440');
    }
    expect(message(() => parseRouteRecent({ ticker: 'SOL-USDT', buy: 'okx', sell: 'okx', minutes: '0' }, EXCHANGES))).toBe('buy and sell must differ');
  });

  it('lists the configured exchanges, in their order', () => {
    expect(message(() => parseRouteParams({ ...valid, buy: 'kraken' }, ['okx', 'gate'], 'body'))).toBe('buy must be one of okx, gate');
    expect(message(() => parseRouteParams({ ...valid, sell: 'binance' }, ['okx', 'binance'], 'body'))).toBe('buy and sell must differ');
    expect(message(() => parseRouteParams(valid, ['okx', 'gate'], 'body'))).toBe('buy must be one of okx, gate');
  });

  it('reports the first failure in the `errors` rule order', () => {
    const all = { ticker: 'BTC/USDT', buy: 'x', sell: 'y', days: 0, threshold: -1, basis: 'mid', capital: 1, transferMinutes: -1 };
    const order = [
      ['ticker', 'BTC-USDT', 'ticker is invalid'],
      ['buy', 'bybit', 'buy must be one of binance, bybit, okx, gate, bitget'],
      ['sell', 'bybit', 'sell must be one of binance, bybit, okx, gate, bitget'],
      ['sell', 'gate', 'buy and sell must differ'],
      ['days', 90, 'days must be an integer from 1 to 90'],
      ['threshold', 100, 'threshold must be a number from 0 to 100'],
      ['basis', 'gross', 'basis must be net or gross'],
      ['capital', 10_000_000, 'capital must be a number from 10 to 10000000'],
      ['transferMinutes', 1440, 'transferMinutes must be an integer from 0 to 1440'],
    ] as const;
    const body: Record<string, unknown> = { ...all };
    for (const [field, fix, expected] of order) {
      expect(message(() => parseBacktestRequest(body, EXCHANGES))).toBe(expected);
      body[field] = fix;
    }
    expect(message(() => parseBacktestRequest(body, EXCHANGES))).toBe('no error');
  });

  it.each([
    ['days', 1.5], ['days', '7'], ['days', 91], ['threshold', '0.3'], ['threshold', 100.01],
    ['capital', 9.99], ['capital', '1000'], ['transferMinutes', 2.5], ['transferMinutes', 1441],
  ])('a body %s of %j is refused (numbers must be JSON numbers in range)', (field, value) => {
    expect(message(() => parseBacktestRequest({ ...valid, [field]: value }, EXCHANGES))).toMatch(new RegExp(`^${field} must be`));
  });

  it.each([['days', 'abc'], ['days', '0x10'], ['days', '1.5'], ['threshold', '1,5'], ['threshold', 'NaN']])(
    'a query %s of %j is refused',
    (field, value) => {
      expect(message(() => parseRouteParams({ ...valid, [field]: value }, EXCHANGES, 'query'))).toMatch(new RegExp(`^${field} must be`));
    },
  );

  it('accepts the bounds', () => {
    const bounds = { ...valid, days: 90, threshold: 0, capital: 10, transferMinutes: 1440 };
    expect(parseBacktestRequest(bounds, EXCHANGES)).toMatchObject({ days: 90, threshold: 0, capital: 10, transferMinutes: 1440 });
    expect(parseBacktestRequest({ ...bounds, days: 1, threshold: 100, capital: 10_000_000, transferMinutes: 0 }, EXCHANGES)).toBeTruthy();
  });
});
