import { describe, expect, it } from 'vitest';
import { decimalsOf } from './instruments.js';
import { deltaWithin, DepthBooks, GENERATED_LEVELS, generateBook, type Level } from './depth-book.js';
import { MarketState } from './market-state.js';
import { RandomWalk, seededRng } from './random-walk.js';

const BASES = ['BTC', 'ETH', 'PEPE', 'DOGE'];

function onTick(price: number, tick: number): boolean {
  return Number(price.toFixed(decimalsOf(tick))) === price;
}

/** The first broken invariant of a book, or undefined when it is sorted, uncrossed, positive and on the tick. */
function invalidity(bids: readonly Level[], asks: readonly Level[], tick: number): string | undefined {
  if (bids.length === 0 || asks.length === 0) return 'empty side';
  if (bids.some((l, n) => n > 0 && l[0] >= (bids[n - 1]?.[0] ?? 0))) return 'bids not descending';
  if (asks.some((l, n) => n > 0 && l[0] <= (asks[n - 1]?.[0] ?? 0))) return 'asks not ascending';
  if ((bids[0]?.[0] ?? 0) >= (asks[0]?.[0] ?? 0)) return 'crossed';
  if ([...bids, ...asks].some(([p, q]) => !(p > 0) || !(q > 0))) return 'non-positive level';
  if ([...bids, ...asks].some(([p]) => !onTick(p, tick))) return 'off the tick';
  return undefined;
}

describe('generateBook', () => {
  it('walks every market for 30 steps and keeps each book sorted, uncrossed, on the tick, with the quote as best level', () => {
    const state = new MarketState(BASES, () => 0);
    const walk = new RandomWalk(state, seededRng(11));
    for (let step = 0; step < 30; step++) {
      walk.step(step);
      for (const q of state.list()) {
        const book = state.book(q);
        const tick = state.instrument(q.ticker)?.tick ?? 0;
        if (!book) throw new Error('no book');
        const problem = invalidity(book.bids, book.asks, tick)
          ?? (book.bids[0]?.[0] !== q.bid || book.bids[0]?.[1] !== q.bidQty ? 'best bid is not the quote' : undefined)
          ?? (book.asks[0]?.[0] !== q.ask || book.asks[0]?.[1] !== q.askQty ? 'best ask is not the quote' : undefined);
        if (problem) expect.fail(`${q.exchange} ${q.market} ${q.ticker} step ${step}: ${problem}`);
      }
    }
  });

  it('holds 50 levels a side, one or two ticks apart, sizes thinning with distance', () => {
    const state = new MarketState(['BTC'], () => 0);
    const q = state.get('okx', 'SPOT', 'BTC-USDT');
    const i = state.instrument('BTC-USDT');
    if (!q || !i) throw new Error('no market');
    const { bids, asks } = generateBook(q, i);
    expect(bids).toHaveLength(GENERATED_LEVELS);
    expect(asks).toHaveLength(GENERATED_LEVELS);
    for (const levels of [bids, asks]) {
      for (let n = 1; n < levels.length; n++) {
        const gap = Math.abs((levels[n]?.[0] ?? 0) - (levels[n - 1]?.[0] ?? 0)) / i.tick;
        expect(Math.round(gap)).toBeGreaterThanOrEqual(1);
        expect(Math.round(gap)).toBeLessThanOrEqual(2);
        expect(levels[n]?.[1]).toBeLessThanOrEqual(levels[n - 1]?.[1] ?? 0);
      }
      expect(levels.at(-1)?.[1]).toBeLessThan((levels[0]?.[1] ?? 0) / 5);
    }
  });

  it('stops before a price would reach zero', () => {
    const state = new MarketState(['DOGE'], () => 0);
    const q = state.apply({ exchange: 'gate', market: 'SPOT', ticker: 'DOGE-USDT', bid: 0.00005, ask: 0.00006 });
    const i = state.instrument('DOGE-USDT');
    if (!i) throw new Error('no market');
    const { bids } = generateBook(q, i);
    expect(bids.length).toBeLessThan(GENERATED_LEVELS);
    expect(bids.every(([p]) => p > 0)).toBe(true);
  });
});

describe('DepthBooks', () => {
  it('keeps a book set exactly until the next quote, which re-centres a generated one', () => {
    const state = new MarketState(['ETH'], () => 0);
    const bids: Level[] = [[3000, 1], [2999.5, 2]];
    const asks: Level[] = [[3001, 3]];
    const q = state.applyBook({ exchange: 'bybit', market: 'FUTURES', ticker: 'ETH-USDT', bids, asks });
    expect([q.bid, q.bidQty, q.ask, q.askQty]).toEqual([3000, 1, 3001, 3]);
    expect(state.book(q)).toMatchObject({ bids, asks });
    const moved = state.apply({ exchange: 'bybit', market: 'FUTURES', ticker: 'ETH-USDT', bid: 3100, ask: 3100.02 });
    const book = state.book(moved);
    expect(book?.bids[0]?.[0]).toBe(3100);
    expect(book?.asks[0]?.[0]).toBe(3100.02);
    expect(book?.bids).toHaveLength(GENERATED_LEVELS);
  });

  it('numbers versions and merges the changes since the last delta, removed levels at 0', () => {
    const state = new MarketState(['ETH'], () => 0);
    const market = { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT' } as const;
    const first = state.book(state.applyBook({ ...market, bids: [[100, 1], [99, 2]], asks: [[101, 1], [102, 2]] }));
    expect(first?.id).toBe(1);
    state.book(state.applyBook({ ...market, bids: [[100, 5], [98, 2]], asks: [[101, 1], [102, 2]] }));
    const q = state.applyBook({ ...market, bids: [[100, 5], [98, 3]], asks: [[102, 2]] });
    expect(state.book(q)?.id).toBe(3);
    expect(state.depth.takeDelta(q)).toMatchObject({ first: 2, last: 3, bids: [[100, 5], [99, 0], [98, 3]], asks: [[101, 0]] });
    expect(state.depth.takeDelta(q)).toBeUndefined();
  });

  it('touch makes a new version that re-states the best levels', () => {
    const books = new DepthBooks();
    const state = new MarketState(['ETH'], () => 0);
    const q = state.applyBook({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bids: [[100, 1]], asks: [[101, 2]] });
    const i = state.instrument('ETH-USDT');
    if (!i) throw new Error('no market');
    books.setExact(q, { bids: [[100, 1]], asks: [[101, 2]] });
    expect(books.current(q, i).id).toBe(1);
    expect(books.touch(q, i).id).toBe(2);
    expect(books.takeDelta(q)).toMatchObject({ first: 2, last: 2, bids: [[100, 1]], asks: [[101, 2]] });
  });
});

describe('deltaWithin', () => {
  it('diffs a channel\'s own top levels: a level leaving the top is removed, one entering is added', () => {
    const state = new MarketState(['ETH'], () => 0);
    const market = { exchange: 'bybit', market: 'SPOT', ticker: 'ETH-USDT' } as const;
    state.book(state.applyBook({ ...market, bids: [[100, 1], [99, 2], [98, 3]], asks: [[101, 1], [102, 2]] }));
    state.depth.takeDelta(state.get('bybit', 'SPOT', 'ETH-USDT') ?? expect.fail('no quote'));
    // A new best bid pushes 98 out of the top 2; a change at 97, beyond the top 2, is not shown.
    const q = state.applyBook({ ...market, bids: [[100.5, 4], [100, 1], [99, 2], [97, 9]], asks: [[101, 1], [102, 2]] });
    const book = state.book(q) ?? expect.fail('no book');
    const delta = state.depth.takeDelta(q) ?? expect.fail('no delta');
    expect(deltaWithin(delta, book, 2)).toEqual({ bids: [[100.5, 4], [99, 0]], asks: [] });
    expect(deltaWithin(delta, book, Number.POSITIVE_INFINITY)).toEqual({ bids: [[100.5, 4], [98, 0], [97, 9]], asks: [] });
  });
});
