import { describe, expect, it } from 'vitest';
import { SettledFundingCache } from './settled-funding.cache.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 26, 16);
const pay = (hoursAgo: number, rate: number) => ({ settledAt: T0 - hoursAgo * H, rate, intervalHours: 8 });

describe('SettledFundingCache', () => {
  it('figures are null until refreshed, then computed; requests read the stored figures only', async () => {
    const cache = new SettledFundingCache();
    cache.add('okx', 'BTC-USDT', [pay(16, 0.0001), pay(8, 0.0001), pay(0, 0.0001)]);
    expect(cache.figures('okx', 'BTC-USDT').apr1d).toBeNull();
    expect(await cache.refresh(T0)).toBe(1);
    expect(cache.figures('okx', 'BTC-USDT')).toMatchObject({ apr1d: 10.95, stability7d: 0, settledRate: 0.0001, intervalChangedAt: null });
  });

  it('recomputes only what changed or aged: nothing before the oldest 1-day payment leaves the window', async () => {
    const cache = new SettledFundingCache();
    cache.add('okx', 'BTC-USDT', [pay(16, 0.0003), pay(8, 0.0001), pay(0, 0.0001)]);
    cache.add('gate', 'BTC-USDT', [pay(0, 0.0002)]);
    await cache.refresh(T0);
    expect(await cache.refresh(T0 + 7 * H)).toBe(0);
    // At T0 + 8 h the okx payment of T0 − 16 h is one day old: out of the 1-day window.
    expect(await cache.refresh(T0 + 8 * H)).toBe(1);
    expect(cache.figures('okx', 'BTC-USDT').apr1d).toBe(10.95);
  });

  it('a payment at the same time replaces the stored one; payments older than 30 days are dropped', async () => {
    const cache = new SettledFundingCache();
    cache.add('okx', 'BTC-USDT', [pay(31 * 24, 0.01), pay(0, 0.0001)]);
    cache.add('okx', 'BTC-USDT', [pay(0, 0.0002)]);
    await cache.refresh(T0);
    expect(cache.settlements('okx', 'BTC-USDT').map((s) => s.rate)).toEqual([0.0002]);
    expect(cache.figures('okx', 'BTC-USDT').apr30d).toBe(21.9);
  });

  it('keeps the latest interval change seen', () => {
    const cache = new SettledFundingCache();
    cache.setIntervalChange('okx', 'BTC-USDT', T0);
    cache.setIntervalChange('okx', 'BTC-USDT', T0 - H);
    expect(cache.figures('okx', 'BTC-USDT').intervalChangedAt).toBe(T0);
  });

  it('answers the last payment, the last before a time, and whether a time is held, from the packed columns', () => {
    const cache = new SettledFundingCache();
    cache.add('okx', 'BTC-USDT', [pay(0, 0.0003), pay(16, 0.0001), { settledAt: T0 - 12 * H, rate: -0.00005, intervalHours: 4 }]);
    expect(cache.last('okx', 'BTC-USDT')).toEqual({ settledAt: T0, rate: 0.0003, intervalHours: 8 });
    expect(cache.lastBefore('okx', 'BTC-USDT', T0)).toEqual({ settledAt: T0 - 12 * H, rate: -0.00005, intervalHours: 4 });
    expect(cache.lastBefore('okx', 'BTC-USDT', T0 + 1)?.settledAt).toBe(T0);
    expect(cache.lastBefore('okx', 'BTC-USDT', T0 - 16 * H)).toBeUndefined();
    expect([T0, T0 - 12 * H, T0 - 16 * H, T0 - H].map((t) => cache.has('okx', 'BTC-USDT', t))).toEqual([true, true, true, false]);
    expect(cache.last('gate', 'BTC-USDT')).toBeUndefined();
    expect(cache.has('gate', 'BTC-USDT', T0)).toBe(false);
  });

  it('a payment exactly 30 days old has left the window; one a millisecond younger stays', async () => {
    const cache = new SettledFundingCache();
    cache.add('okx', 'BTC-USDT', [{ settledAt: T0 - 30 * 24 * H, rate: 0.01, intervalHours: 8 }, { settledAt: T0 - 30 * 24 * H + 1, rate: 0.0001, intervalHours: 8 }]);
    await cache.refresh(T0);
    expect(cache.settlements('okx', 'BTC-USDT').map((s) => s.rate)).toEqual([0.0001]);
  });
});
