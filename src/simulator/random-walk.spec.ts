import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { decimalsOf } from './instruments.js';
import { MarketState } from './market-state.js';
import { RandomWalk, seededRng } from './random-walk.js';

const BASES = ['BTC', 'ETH', 'PEPE'];

function walked(seed: number, steps: number, options = {}): MarketState {
  const state = new MarketState(BASES, () => 0);
  const walk = new RandomWalk(state, seededRng(seed), options);
  for (let i = 0; i < steps; i++) walk.step(i);
  return state;
}

function snapshot(state: MarketState): string {
  return JSON.stringify(state.list().map((q) => [q.exchange, q.market, q.ticker, q.bid, q.ask, q.bidQty, q.askQty]));
}

/** Largest (best bid elsewhere − ask here) / ask across exchanges' spot books, in percent. */
function bestCrossSpread(state: MarketState, ticker: string): number {
  const spots = state.list({ market: 'SPOT', ticker });
  let best = -Infinity;
  for (const buy of spots) {
    for (const sell of spots) {
      if (buy.exchange !== sell.exchange) best = Math.max(best, ((sell.bid - buy.ask) / buy.ask) * 100);
    }
  }
  return best;
}

describe('seededRng', () => {
  it('is reproducible and uniform in [0, 1)', () => {
    const a = seededRng(42);
    const b = seededRng(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((s, v) => s + v, 0) / values.length).toBeCloseTo(0.5, 1);
  });
});

describe('RandomWalk', () => {
  it('is deterministic for a seed', () => {
    expect(snapshot(walked(7, 20))).toBe(snapshot(walked(7, 20)));
    expect(snapshot(walked(7, 20))).not.toBe(snapshot(walked(8, 20)));
  });

  it('leaves held tickers alone on every exchange and market, and moves them again once released', () => {
    const state = new MarketState(BASES, () => 0);
    const walk = new RandomWalk(state, seededRng(5));
    const of = (ticker: string): string => JSON.stringify(state.list({ ticker }).map((q) => [q.bid, q.ask, q.bidQty, q.askQty]));
    const btc = of('BTC-USDT');
    const eth = of('ETH-USDT');
    walk.hold(['BTC-USDT']);
    expect(walk.holding).toEqual(['BTC-USDT']);
    for (let i = 0; i < 5; i++) walk.step(i);
    expect(of('BTC-USDT')).toBe(btc);
    expect(of('ETH-USDT')).not.toBe(eth);
    walk.hold([]);
    walk.step(5);
    expect(of('BTC-USDT')).not.toBe(btc);
  });

  it('keeps every book valid: bid < ask, on the tick, positive sizes', () => {
    const state = walked(3, 200);
    for (const q of state.list()) {
      const tick = state.instrument(q.ticker)?.tick ?? 0;
      expect(q.bid).toBeGreaterThan(0);
      expect(q.ask).toBeGreaterThan(q.bid);
      expect(Number(q.bid.toFixed(decimalsOf(tick)))).toBe(q.bid);
      expect(q.bidQty).toBeGreaterThan(0);
      expect(q.askQty).toBeGreaterThan(0);
    }
  });

  it('stays at realistic prices: within 5 % of the start after 500 steps', () => {
    const state = walked(11, 500);
    for (const q of state.list()) {
      const start = state.instrument(q.ticker)?.mid ?? 0;
      expect(Math.abs((q.bid + q.ask) / 2 / start - 1)).toBeLessThan(0.05);
    }
  });

  it('creates cross-exchange spot spreads above 0.1 % now and then, and they close again', () => {
    const state = new MarketState(BASES, () => 0);
    const walk = new RandomWalk(state, seededRng(5));
    let opened = 0;
    let closed = 0;
    for (let i = 0; i < 400; i++) {
      walk.step(i);
      const spread = bestCrossSpread(state, 'BTC-USDT');
      if (spread > 0.1) opened++;
      else closed++;
    }
    expect(opened).toBeGreaterThan(0);
    expect(closed).toBeGreaterThan(opened);
  });

  it('without dislocations the exchanges stay within a few basis points', () => {
    const state = walked(9, 100, { dislocationChance: 0 });
    expect(bestCrossSpread(state, 'ETH-USDT')).toBeLessThan(0.05);
    expect(EXCHANGE_NAMES.every((e) => state.get(e, 'FUTURES', 'ETH-USDT'))).toBe(true);
  });
});
