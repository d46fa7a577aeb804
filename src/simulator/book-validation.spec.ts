import { describe, expect, it } from 'vitest';
import { BOOK_LEVELS_MAX, BOOKS_PER_REQUEST_MAX, validateBookQuery, validateBooks } from './book-validation.js';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';

const TICKS = new Map([['BTC-USDT', 0.1], ['PEPE-USDT', 1e-10]]);
const book = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bids: [[100, 1], [99.9, 2]], asks: [[100.1, 1], [100.3, 4]] };

describe('validateBooks', () => {
  it('accepts a book and normalises exchange, market and ticker forms', () => {
    expect(validateBooks([{ ...book, exchange: 'BINANCE', market: 'futures', ticker: 'btcusdt' }], TICKS)).toEqual({
      ok: true, value: [{ exchange: 'binance', market: 'FUTURES', ticker: 'BTC-USDT', bids: [[100, 1], [99.9, 2]], asks: [[100.1, 1], [100.3, 4]] }],
    });
  });

  it('accepts prices on a tiny tick and the full level count', () => {
    const bids = Array.from({ length: BOOK_LEVELS_MAX }, (_, n) => [Number((0.0000182 - n * 1e-10).toFixed(10)), 1]);
    expect(validateBooks([{ ...book, ticker: 'PEPE-USDT', bids, asks: [[0.0000183, 5]] }], TICKS).ok).toBe(true);
  });

  const levels = (n: number): number[][] => Array.from({ length: n }, (_, k) => [100 - k * 0.1, 1]).map(([p, q]) => [Number(p?.toFixed(1)), q ?? 1]);

  it.each([
    [{ not: 'an array' }, 'body must be an array of books'],
    [[], 'body must contain at least one book'],
    [Array.from({ length: BOOKS_PER_REQUEST_MAX + 1 }, () => book), `body must contain at most ${BOOKS_PER_REQUEST_MAX} books`],
    [[7], '[0] must be an object'],
    [[{ ...book, exchange: 'kraken' }], `[0].exchange must be one of ${EXCHANGE_LIST}`],
    [[{ ...book, market: 'MARGIN' }], '[0].market must be SPOT or FUTURES'],
    [[{ ...book, ticker: 'XYZ-USDT' }], '[0].ticker XYZ-USDT is not simulated'],
    [[{ ...book, bids: undefined }], '[0].bids is required'],
    [[{ ...book, asks: 'none' }], '[0].asks must be an array of [price, qty] pairs'],
    [[{ ...book, bids: [] }], '[0].bids must hold at least one level'],
    [[{ ...book, bids: levels(BOOK_LEVELS_MAX + 1) }], `[0].bids must hold at most ${BOOK_LEVELS_MAX} levels`],
    [[{ ...book, bids: [[100, 1, 3]] }], '[0].bids[0] must be a [price, qty] pair'],
    [[{ ...book, bids: [[100, 1], [-1, 2]] }], '[0].bids[1] price must be a positive number'],
    [[{ ...book, asks: [['100.1', 1]] }], '[0].asks[0] price must be a positive number'],
    [[{ ...book, asks: [[100.1, 0]] }], '[0].asks[0] qty must be a positive number'],
    [[{ ...book, asks: [[100.15, 1]] }], '[0].asks[0] price 100.15 is not a multiple of the tick 0.1'],
    [[{ ...book, bids: [[100, 1], [100.1, 1]] }], '[0].bids must be in descending price order ([0].bids[1])'],
    [[{ ...book, bids: [[100, 1], [100, 1]] }], '[0].bids must be in descending price order ([0].bids[1])'],
    [[{ ...book, asks: [[100.3, 1], [100.1, 1]] }], '[0].asks must be in ascending price order ([0].asks[1])'],
    [[{ ...book, asks: [[100, 1]] }], '[0] is crossed: best bid 100 must be below best ask 100'],
    [[book, { ...book, bids: [[101, 1]] }], '[1] is crossed: best bid 101 must be below best ask 100.1'],
  ])('rejects %j with "%s"', (body, message) => {
    expect(validateBooks(body, TICKS)).toEqual({ ok: false, message });
  });
});

describe('validateBookQuery', () => {
  const known = new Set(TICKS.keys());
  it('reads exchange, market and ticker in any of their forms', () => {
    expect(validateBookQuery(new URLSearchParams('exchange=OKX&market=futures&ticker=btcusdt'), known)).toEqual({
      ok: true, value: { exchange: 'okx', market: 'FUTURES', ticker: 'BTC-USDT' },
    });
  });

  it.each([
    ['market=SPOT&ticker=BTC-USDT', 'exchange is required'],
    ['exchange=okx&ticker=BTC-USDT', 'market is required'],
    ['exchange=okx&market=SPOT', 'ticker is required'],
    ['exchange=okx&market=SPOT&ticker=XYZ-USDT', 'ticker XYZ-USDT is not simulated'],
  ])('rejects %s with "%s"', (query, message) => {
    expect(validateBookQuery(new URLSearchParams(query), known)).toEqual({ ok: false, message });
  });
});
