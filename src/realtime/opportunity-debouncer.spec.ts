import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpportunityDebouncer } from './opportunity-debouncer.js';

describe('OpportunityDebouncer (rules: debounce; 200 ms per symbol)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const state = new Map<string, number | null>();
    const emitted: { symbol: string; value: number; at: number }[] = [];
    const d = new OpportunityDebouncer<{ symbol: string; value: number }>(
      200,
      (symbol) => {
        const value = state.get(symbol);
        return value === undefined || value === null ? null : { symbol, value };
      },
      (o) => emitted.push({ ...o, at: Date.now() }),
    );
    return { state, emitted, d };
  };

  it('a burst of 20 updates within 150 ms gives one event, with the latest state, 200 ms after the first', () => {
    const { state, emitted, d } = setup();
    const start = Date.now();
    for (let i = 0; i < 20; i += 1) {
      state.set('BTC', i);
      d.detected('BTC');
      vi.advanceTimersByTime(7);
    }
    vi.advanceTimersByTime(200);
    expect(emitted).toEqual([{ symbol: 'BTC', value: 19, at: start + 200 }]);
  });

  it('emits nothing when the opportunity is gone when the timer fires', () => {
    const { state, emitted, d } = setup();
    state.set('BTC', 1);
    d.detected('BTC');
    state.set('BTC', null);
    vi.advanceTimersByTime(250);
    expect(emitted).toEqual([]);
    expect(d.pendingCount).toBe(0);
  });

  it('is never starved by a steady stream of ticks: one event per 200 ms', () => {
    const { state, emitted, d } = setup();
    for (let t = 0; t < 1000; t += 10) {
      state.set('BTC', t);
      d.detected('BTC');
      vi.advanceTimersByTime(10);
    }
    expect(emitted.length).toBe(5);
    const gaps = emitted.slice(1).map((e, i) => e.at - (emitted[i]?.at ?? 0));
    expect(gaps.every((g) => g >= 200)).toBe(true);
  });

  it('debounces symbols independently', () => {
    const { state, emitted, d } = setup();
    state.set('BTC', 1);
    d.detected('BTC');
    vi.advanceTimersByTime(100);
    state.set('ETH', 2);
    d.detected('ETH');
    vi.advanceTimersByTime(100);
    expect(emitted.map((e) => e.symbol)).toEqual(['BTC']);
    vi.advanceTimersByTime(100);
    expect(emitted.map((e) => e.symbol)).toEqual(['BTC', 'ETH']);
  });

  it('clear() cancels every pending timer', () => {
    const { state, emitted, d } = setup();
    state.set('BTC', 1);
    d.detected('BTC');
    d.clear();
    vi.advanceTimersByTime(1000);
    expect(emitted).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
