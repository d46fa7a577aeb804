import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/validate-env.js';
import { MAX_PENDING_CHANGES, type RouteChange, RouteChangeQueue } from './route-changes.js';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const ROUTE = { ticker: 'SOL-USDT', buyExchange: 'okx', sellExchange: 'bybit' };
const queue = (env: Record<string, string> = {}) => new RouteChangeQueue(loadConfig({ DB_PATH: ':memory:', ...env }));
const shown = (time: number, gross: number, route = ROUTE): RouteChange =>
  ({ ...route, time, buyPrice: 100, sellPrice: 100 + gross, grossSpreadPercent: gross, volume24h: 5e5 });

describe('RouteChangeQueue (rules: recorders)', () => {
  it('keeps every shown spread at or above HISTORY_MIN_SPREAD_PERCENT, in order, with its own time', () => {
    const q = queue({ HISTORY_MIN_SPREAD_PERCENT: '0.2' });
    q.shown(shown(T, 0.3));
    q.shown(shown(T + 200, 0.19999999)); // below 0.2: not kept
    q.shown(shown(T + 400, 0.2)); // exactly the minimum: kept
    q.shown(shown(T + 600, 0.3)); // unchanged figure: still a published event, kept
    expect(q.drain().changes.map((c) => [c.time - T, c.grossSpreadPercent])).toEqual([[0, 0.3], [400, 0.2], [600, 0.3]]);
    expect(q.size).toBe(0);
  });

  it('keeps the closing spread of a shown route, whatever it is, once', () => {
    const q = queue({ HISTORY_MIN_SPREAD_PERCENT: '0.2' });
    q.shown(shown(T, 0.5));
    // Closed by a tick at ask 100, bid 99.9: (99.9 − 100) ÷ 100 × 100 = −0.1 %, below the minimum, still kept.
    q.ended({ ...ROUTE, time: T + 1500, buyPrice: 100, sellPrice: 99.9 });
    q.ended({ ...ROUTE, time: T + 1600, buyPrice: 100, sellPrice: 99.8 }); // no episode open any more
    const { changes } = q.drain();
    expect(changes.map((c) => [c.time - T, c.grossSpreadPercent, c.volume24h])).toEqual([[0, 0.5, 5e5], [1500, -0.1, 5e5]]);
  });

  it('keeps no end for a route never shown, or shown below the minimum, or closed because a quote lapsed', () => {
    const q = queue({ HISTORY_MIN_SPREAD_PERCENT: '0.2' });
    q.ended({ ...ROUTE, time: T, buyPrice: 100, sellPrice: 99.9 });
    q.shown(shown(T + 100, 0.1));
    q.ended({ ...ROUTE, time: T + 200, buyPrice: 100, sellPrice: 99.9 });
    q.shown(shown(T + 300, 0.4));
    q.ended({ ...ROUTE, time: T + 10_300, buyPrice: null, sellPrice: null });
    expect(q.drain().changes.map((c) => c.time - T)).toEqual([300]);
  });

  it('an end received before the last shown event was published sorts just after it', () => {
    const q = queue();
    q.shown(shown(T + 1000, 0.4));
    q.ended({ ...ROUTE, time: T + 998, buyPrice: 100, sellPrice: 100 });
    expect(q.drain().changes.map((c) => [c.time - T, c.grossSpreadPercent])).toEqual([[1000, 0.4], [1001, 0]]);
  });

  it('routes are kept apart', () => {
    const q = queue();
    const other = { ticker: 'SOL-USDT', buyExchange: 'bybit', sellExchange: 'okx' };
    q.shown(shown(T, 0.4));
    q.ended({ ...other, time: T + 100, buyPrice: 100, sellPrice: 99 });
    expect(q.drain().changes).toHaveLength(1);
  });

  it('keeps nothing with the recorder off', () => {
    const q = queue({ HISTORY_INTERVAL_MS: '0' });
    q.shown(shown(T, 0.4));
    q.ended({ ...ROUTE, time: T + 100, buyPrice: 100, sellPrice: 99 });
    expect(q.accepting).toBe(false);
    expect(q.drain().changes).toEqual([]);
  });

  it('is bounded: beyond the limit changes are dropped and counted; a requeue goes ahead of newer ones', () => {
    const q = queue();
    const one = shown(T, 0.4);
    for (let i = 0; i < MAX_PENDING_CHANGES + 3; i++) q.shown(one);
    const first = q.drain();
    expect([first.changes.length, first.dropped]).toEqual([MAX_PENDING_CHANGES, 3]);
    q.shown(shown(T + 5, 0.5));
    q.requeue([shown(T + 1, 0.4), shown(T + 2, 0.4)]);
    expect(q.drain().changes.map((c) => c.time - T)).toEqual([1, 2, 5]);
  });
});
