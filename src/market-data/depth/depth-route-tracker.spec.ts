import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../../market-model/exchanges.js';
import { DepthRouteTracker, type TrackedRoute } from './depth-route-tracker.js';

const route = (ticker: string, buyExchange: ExchangeName, sellExchange: ExchangeName): TrackedRoute => ({ ticker, buyExchange, sellExchange });

/** A tracker that ranks once per burst: `flush()` runs the rankings asked for so far. */
function scheduledSetUp(): { tracker: DepthRouteTracker; calls: string[]; flush(): void } {
  const calls: string[] = [];
  const flushes: (() => void)[] = [];
  const tracker = new DepthRouteTracker({ maxBooks: 400, graceMs: 60_000, hold: (exchange, tickers) => calls.push(`${exchange}: ${tickers.join(',')}`), schedule: (flush) => flushes.push(flush) });
  return { tracker, calls, flush: () => flushes.splice(0).forEach((flush) => flush()) };
}

function setUp(maxBooks = 400, graceMs = 60_000): { tracker: DepthRouteTracker; calls: string[] } {
  const calls: string[] = [];
  const tracker = new DepthRouteTracker({ maxBooks, graceMs, hold: (exchange, tickers) => calls.push(`${exchange}: ${tickers.join(',')}`) });
  return { tracker, calls };
}

describe('DepthRouteTracker: the books held for open routes', () => {
  it('an opening route holds both legs; a second route on a shared leg adds only the other', () => {
    const { tracker, calls } = setUp();
    tracker.opened(route('BTC-USDT', 'binance', 'okx'), 1000, 0.5);
    expect(calls).toEqual(['binance: BTC-USDT', 'okx: BTC-USDT']);
    tracker.opened(route('BTC-USDT', 'binance', 'gate'), 1100, 0.4);
    expect(calls.slice(2)).toEqual(['gate: BTC-USDT']);
    expect(tracker.holds(route('BTC-USDT', 'binance', 'gate'))).toBe(true);
  });

  it('a closed route keeps its books for the grace period, then releases them', () => {
    const { tracker, calls } = setUp(400, 60_000);
    tracker.opened(route('ETH-USDT', 'bybit', 'bitget'), 1000, 0.5);
    tracker.closed(route('ETH-USDT', 'bybit', 'bitget'), 2000);
    tracker.sweep(61_999);
    expect(calls).toEqual(['bybit: ETH-USDT', 'bitget: ETH-USDT']);
    tracker.sweep(62_000);
    expect(calls.slice(2)).toEqual(['bybit: ', 'bitget: ']);
    expect(tracker.books).toEqual([]);
  });

  it('a route reopening within its grace period keeps its books without a new request', () => {
    const { tracker, calls } = setUp();
    tracker.opened(route('ETH-USDT', 'bybit', 'bitget'), 1000, 0.5);
    tracker.closed(route('ETH-USDT', 'bybit', 'bitget'), 2000);
    tracker.opened(route('ETH-USDT', 'bybit', 'bitget'), 3000, 0.6);
    tracker.sweep(70_000);
    expect(calls).toEqual(['bybit: ETH-USDT', 'bitget: ETH-USDT']);
  });

  it('at the cap, routes in their grace period give way first, then the least profitable', () => {
    const { tracker } = setUp(4);
    tracker.opened(route('A-USDT', 'binance', 'okx'), 1000, 0.5);
    tracker.opened(route('B-USDT', 'binance', 'okx'), 1100, 0.3);
    tracker.closed(route('A-USDT', 'binance', 'okx'), 1200);
    tracker.opened(route('C-USDT', 'binance', 'okx'), 1300, 0.2);
    // B and C are open (4 books): A, in its grace period, gave way.
    expect(tracker.books.sort()).toEqual(['binance|B-USDT', 'binance|C-USDT', 'okx|B-USDT', 'okx|C-USDT']);
    tracker.opened(route('D-USDT', 'binance', 'okx'), 1400, 0.9);
    // D (0.9 %) takes the place of the least profitable, C (0.2 %).
    expect(tracker.books.sort()).toEqual(['binance|B-USDT', 'binance|D-USDT', 'okx|B-USDT', 'okx|D-USDT']);
    expect(tracker.holds(route('C-USDT', 'binance', 'okx'))).toBe(false);
  });

  it('among equally profitable routes at the cap, the oldest gives way', () => {
    const { tracker } = setUp(2);
    tracker.opened(route('A-USDT', 'binance', 'okx'), 1000, 0.5);
    tracker.opened(route('B-USDT', 'binance', 'okx'), 2000, 0.5);
    expect(tracker.books.sort()).toEqual(['binance|B-USDT', 'okx|B-USDT']);
  });

  it('a route left out at the cap gets its books once room frees up', () => {
    const { tracker } = setUp(2, 0);
    tracker.opened(route('A-USDT', 'binance', 'okx'), 1000, 0.9);
    tracker.opened(route('B-USDT', 'binance', 'okx'), 1100, 0.5);
    expect(tracker.holds(route('B-USDT', 'binance', 'okx'))).toBe(false);
    tracker.closed(route('A-USDT', 'binance', 'okx'), 1200);
    tracker.sweep(1200);
    expect(tracker.holds(route('B-USDT', 'binance', 'okx'))).toBe(true);
  });

  it('a route that closes before its burst is ranked never asks for books, and has no grace period', () => {
    const { tracker, calls, flush } = scheduledSetUp();
    // A crossing of a few milliseconds: open and closed within the burst.
    tracker.opened(route('A-USDT', 'binance', 'okx'), 1000, 0.4);
    tracker.closed(route('A-USDT', 'binance', 'okx'), 1026);
    // A route still open when the burst is ranked gets its books.
    tracker.opened(route('B-USDT', 'gate', 'bybit'), 1030, 0.5);
    flush();
    expect(calls).toEqual(['gate: B-USDT', 'bybit: B-USDT']);
    // B closes after it was chosen: it keeps its books for the grace period.
    tracker.closed(route('B-USDT', 'gate', 'bybit'), 2000);
    flush();
    tracker.sweep(61_999);
    expect(tracker.books.sort()).toEqual(['bybit|B-USDT', 'gate|B-USDT']);
  });

  it('each exchange is asked for its books most profitable first, not alphabetically', () => {
    const { tracker, calls, flush } = scheduledSetUp();
    tracker.opened(route('A-USDT', 'binance', 'okx'), 1000, 0.2);
    tracker.opened(route('B-USDT', 'binance', 'okx'), 1000, 0.9);
    tracker.opened(route('C-USDT', 'binance', 'okx'), 1000, 0.5);
    flush();
    expect(calls).toEqual(['binance: B-USDT,C-USDT,A-USDT', 'okx: B-USDT,C-USDT,A-USDT']);
  });
});
