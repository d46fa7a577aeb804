import { describe, expect, it } from 'vitest';
import {
  aprPercent, buildEntry, compareEntries, deriveIntervalSeconds, FUNDING_STALE_MS, isStale, rankEntries, strategyOf,
  type FundingEntry, type FundingObservation,
} from './funding.engine.js';

const HOUR = 3600;
const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

function observation(over: Partial<FundingObservation> = {}): FundingObservation {
  return {
    exchange: 'binance', contract: 'BTCUSDT', symbol: 'BTC-USDT', fundingRate: 0.0001, intervalSeconds: 8 * HOUR,
    intervalSource: 'exchange', nextFundingTime: Date.UTC(2026, 2, 1, 16), spotPrice: 97_000, markPrice: 97_010,
    updatedAt: NOW, ...over,
  };
}

function entry(exchange: string, contract: string, apr: number | null): FundingEntry {
  return { ...buildEntry(observation({ exchange, contract }), NOW), aprPercent: apr };
}

describe('aprPercent: rate × (365 × 86400 ÷ interval) × 100', () => {
  // 8 h: 3 payments a day, 1095 a year. 0.0001 × 1095 × 100 = 10.95 %.
  it('positive rate, 8 h interval', () => expect(aprPercent(0.0001, 8 * HOUR)).toBe(10.95));
  // 4 h: 2190 a year. −0.00025 × 2190 × 100 = −54.75 %.
  it('negative rate, 4 h interval keeps the sign', () => expect(aprPercent(-0.00025, 4 * HOUR)).toBe(-54.75));
  // 1 h: 8760 a year. 0.00005 × 8760 × 100 = 43.8 %.
  it('1 h interval: eight times the 8 h figure for the same rate', () => {
    expect(aprPercent(0.00005, HOUR)).toBe(43.8);
    expect(aprPercent(0.0001, HOUR)).toBe(87.6); // 8 × 10.95
  });
  it('zero rate is 0 %', () => expect(aprPercent(0, 8 * HOUR)).toBe(0));
  it('money policy: decimal, rounded once to 8 decimals, half away from zero', () => {
    // 0.0003 × 2190 × 100 = 65.7 (doubles: 65.69999999999999)
    expect(aprPercent(0.0003, 4 * HOUR)).toBe(65.7);
    // 0.00000000001 × 1095 × 100 = 0.000001095 → 0.0000011 (the 9th decimal is a 5: away from zero)
    // 0.00000000000004 × 1095 × 100 = 0.00000000438 → 0
    expect(aprPercent(0.00000000001, 8 * HOUR)).toBe(0.0000011);
    expect(Object.is(aprPercent(-0.00000000000004, 8 * HOUR), 0)).toBe(true);
    // 1 ÷ 3 h: 0.0001 × 2920 × 100 = 29.2; 7 h: 0.0001 × 31,536,000 ÷ 25,200 × 100 = 12.5142857142… → 12.51428571
    expect(aprPercent(0.0001, 3 * HOUR)).toBe(29.2);
    expect(aprPercent(0.0001, 7 * HOUR)).toBe(12.51428571);
  });
  it('null rate has no APR', () => expect(aprPercent(null, 8 * HOUR)).toBeNull());
  it('unknown or nonsensical interval has no APR', () => {
    expect(aprPercent(0.0001, null)).toBeNull();
    expect(aprPercent(0.0001, 0)).toBeNull();
    expect(aprPercent(0.0001, -3600)).toBeNull();
  });
});

describe('strategyOf (rules: funding)', () => {
  it('positive rate: longs pay shorts, so long spot and short the perpetual', () =>
    expect(strategyOf(0.0003)).toBe('long_spot_short_perp'));
  it('negative rate: short spot and long the perpetual', () => expect(strategyOf(-0.0001)).toBe('short_spot_long_perp'));
  it('zero rate is neutral', () => expect(strategyOf(0)).toBe('neutral'));
  it('null rate is unavailable', () => expect(strategyOf(null)).toBe('unavailable'));
});

describe('isStale: 15 minutes without update', () => {
  it('14:59 old is fresh, 15:00 old is stale', () => {
    expect(isStale(NOW - FUNDING_STALE_MS + 1000, NOW)).toBe(false);
    expect(isStale(NOW - FUNDING_STALE_MS, NOW)).toBe(true);
  });
});

describe('buildEntry', () => {
  it('fills every `funding` member, dates as UTC RFC 3339', () => {
    expect(buildEntry(observation(), NOW)).toEqual({
      exchange: 'binance', contract: 'BTCUSDT', symbol: 'BTC-USDT', fundingRate: 0.0001,
      fundingIntervalSeconds: 28_800, intervalSource: 'exchange', aprPercent: expect.closeTo(10.95, 10) as number,
      nextFundingTime: '2026-03-01T16:00:00.000Z', spotPrice: 97_000, markPrice: 97_010,
      strategy: 'long_spot_short_perp', updatedAt: '2026-03-01T12:00:00.000Z', stale: false,
      apr1d: null, apr3d: null, apr7d: null, apr30d: null, stability7d: null, settledRate: null, intervalChangedAt: null,
    });
  });

  it('carries the settled figures given, the interval change as UTC RFC 3339', () => {
    const settled = { apr1d: 43.8, apr3d: 27.375, apr7d: 20, apr30d: -1.5, stability7d: 0.47, settledRate: 0.0002, intervalChangedAt: Date.UTC(2026, 1, 28, 20) };
    expect(buildEntry(observation(), NOW, settled)).toMatchObject({ ...settled, intervalChangedAt: '2026-02-28T20:00:00.000Z' });
  });

  it('null rate: no APR, strategy unavailable, the interval is still reported', () => {
    const e = buildEntry(observation({ fundingRate: null }), NOW);
    expect(e).toMatchObject({ fundingRate: null, aprPercent: null, strategy: 'unavailable', fundingIntervalSeconds: 28_800 });
  });

  it('interval unknown: source unavailable, no APR, the rate and strategy still reported', () => {
    const e = buildEntry(observation({ intervalSeconds: null, intervalSource: 'exchange', fundingRate: -0.0002 }), NOW);
    expect(e).toMatchObject({
      fundingIntervalSeconds: null, intervalSource: 'unavailable', aprPercent: null, fundingRate: -0.0002,
      strategy: 'short_spot_long_perp',
    });
  });

  it('derived interval keeps its source and gives an APR (4 h, 0.0001 → 21.9 %)', () => {
    const e = buildEntry(observation({ intervalSeconds: 4 * HOUR, intervalSource: 'derived_schedule' }), NOW);
    expect(e.intervalSource).toBe('derived_schedule');
    expect(e.aprPercent).toBeCloseTo(21.9, 10);
  });

  it('zero rate: neutral, 0 %', () => {
    expect(buildEntry(observation({ fundingRate: 0 }), NOW)).toMatchObject({ aprPercent: 0, strategy: 'neutral' });
  });

  it('missing times and prices are null; an old read is stale', () => {
    const e = buildEntry(observation({ nextFundingTime: null, spotPrice: null, markPrice: null, updatedAt: NOW - FUNDING_STALE_MS }), NOW);
    expect(e).toMatchObject({ nextFundingTime: null, spotPrice: null, markPrice: null, stale: true });
  });
});

describe('ranking: APR descending (signed), no APR last, ties by exchange then contract in code-unit order', () => {
  it('orders signed APRs high to low and puts entries without APR last', () => {
    const ranked = rankEntries([
      entry('okx', 'A', -50), entry('okx', 'B', null), entry('okx', 'C', 10), entry('okx', 'D', 0), entry('okx', 'E', 300),
    ]);
    expect(ranked.map((e) => e.contract)).toEqual(['E', 'C', 'D', 'A', 'B']);
  });

  it('equal APR: exchange first, then contract', () => {
    const ranked = rankEntries([
      entry('okx', 'BTC-USDT-SWAP', 10.95), entry('bybit', 'ETHUSDT', 10.95), entry('bybit', 'BTCUSDT', 10.95),
    ]);
    expect(ranked.map((e) => `${e.exchange}/${e.contract}`)).toEqual(['bybit/BTCUSDT', 'bybit/ETHUSDT', 'okx/BTC-USDT-SWAP']);
  });

  it('entries without APR are ordered among themselves by exchange then contract', () => {
    const ranked = rankEntries([entry('gate', 'B_USDT', null), entry('binance', 'ZUSDT', null), entry('gate', 'A_USDT', null)]);
    expect(ranked.map((e) => `${e.exchange}/${e.contract}`)).toEqual(['binance/ZUSDT', 'gate/A_USDT', 'gate/B_USDT']);
  });

  it('code-unit order, not locale order: upper case before lower case, digits before letters', () => {
    const ranked = rankEntries([entry('x', 'b', 1), entry('x', 'B', 1), entry('x', '1', 1), entry('x', 'a_', 1), entry('x', 'aZ', 1)]);
    expect(ranked.map((e) => e.contract)).toEqual(['1', 'B', 'aZ', 'a_', 'b']);
  });

  it('rankEntries leaves its input alone; compareEntries is 0 only for the same key', () => {
    const input = [entry('okx', 'B', 1), entry('okx', 'A', 2)];
    rankEntries(input);
    expect(input.map((e) => e.contract)).toEqual(['B', 'A']);
    expect(compareEntries(entry('okx', 'A', 1), entry('okx', 'A', 1))).toBe(0);
  });
});

describe('deriveIntervalSeconds: from consecutive funding times', () => {
  const T1 = Date.UTC(2026, 2, 1, 16);
  it('the next funding time moved 4 h between reads a minute apart → 4 h', () => {
    expect(deriveIntervalSeconds({ nextFundingTime: T1, observedAt: T1 - 30_000 }, { nextFundingTime: T1 + 4 * HOUR * 1000, observedAt: T1 + 30_000 })).toBe(4 * HOUR);
  });
  it('unchanged or earlier next time says nothing', () => {
    expect(deriveIntervalSeconds({ nextFundingTime: T1, observedAt: 0 }, { nextFundingTime: T1, observedAt: 60_000 })).toBeNull();
    expect(deriveIntervalSeconds({ nextFundingTime: T1, observedAt: 0 }, { nextFundingTime: T1 - 3_600_000, observedAt: 60_000 })).toBeNull();
  });
  it('reads too far apart may have missed a payment (true 1 h seen as 2 h): refused', () => {
    // Read at 15:59, then not again until 17:01: the next time moved 16:00 → 18:00 (two 1 h payments).
    const before = { nextFundingTime: T1, observedAt: T1 - 60_000 };
    const after = { nextFundingTime: T1 + 2 * HOUR * 1000, observedAt: T1 + HOUR * 1000 + 60_000 };
    expect(deriveIntervalSeconds(before, after)).toBeNull();
  });
});
