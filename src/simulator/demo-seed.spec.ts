import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { chainOf, demoNetworks } from './demo-seed.js';
import { DEFAULT_SIM_SYMBOLS, buildInstrument } from './instruments.js';
import { RandomWalk, seededRng } from './random-walk.js';
import { MarketState } from './market-state.js';

const instruments = DEFAULT_SIM_SYMBOLS.map(buildInstrument);

describe('demo networks', () => {
  const networks = demoNetworks(instruments, seededRng(7));

  it('gives every base one network on each of the five venues', () => {
    expect(networks).toHaveLength(instruments.length * EXCHANGE_NAMES.length);
    for (const i of instruments) {
      const own = networks.filter((n) => n.asset === i.base);
      expect(own.map((n) => n.exchange).sort()).toEqual([...EXCHANGE_NAMES].sort());
      expect(new Set(own.map((n) => n.network))).toEqual(new Set([chainOf(i.base)]));
    }
  });

  it('charges a withdrawal worth a few USDT at most, never nothing', () => {
    for (const n of networks) {
      const mid = instruments.find((i) => i.base === n.asset)?.mid ?? NaN;
      const usdt = n.withdrawFee * mid;
      expect(usdt, `${n.exchange} ${n.asset}`).toBeGreaterThan(0.3);
      expect(usdt, `${n.exchange} ${n.asset}`).toBeLessThan(3);
    }
  });

  it('closes a few wallets, most stay open both ways', () => {
    const closed = networks.filter((n) => !n.withdrawEnabled || !n.depositEnabled);
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.length).toBeLessThan(networks.length * 0.15);
    expect(networks.filter((n) => !n.withdrawEnabled && !n.depositEnabled)).toEqual([]);
  });
});

describe('large dislocations', () => {
  /** The widest spot spread across venues of each step, in percent of the lowest ask. */
  function widestSpreads(largeDislocationShare: number, steps: number): number[] {
    const state = new MarketState(DEFAULT_SIM_SYMBOLS);
    const walk = new RandomWalk(state, seededRng(11), { largeDislocationShare });
    const out: number[] = [];
    for (let s = 0; s < steps; s++) {
      walk.step(s * 500);
      for (const i of instruments) {
        const quotes = EXCHANGE_NAMES.map((e) => state.get(e, 'SPOT', i.ticker)).filter((q) => q !== undefined);
        const ask = Math.min(...quotes.map((q) => q.ask));
        const bid = Math.max(...quotes.map((q) => q.bid));
        out.push(((bid - ask) / ask) * 100);
      }
    }
    return out;
  }

  it('open routes wide enough to pay fees and a withdrawal only in demo mode', () => {
    // 240 steps are two minutes of the demo's walk.
    expect(widestSpreads(0, 240).filter((p) => p > 0.6)).toEqual([]);
    expect(widestSpreads(0.1, 240).filter((p) => p > 0.6).length).toBeGreaterThanOrEqual(2);
  });
});
