import type { Exchange, MarketInterface } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { fetchFundingSnapshots, intervalSecondsOf } from './ccxt-funding.js';

describe('intervalSecondsOf: ccxt funding intervals to seconds', () => {
  it('reads ccxt hour strings', () => {
    expect(intervalSecondsOf('1h')).toBe(3600);
    expect(intervalSecondsOf('4h')).toBe(14_400);
    expect(intervalSecondsOf('8h')).toBe(28_800);
  });
  it('reads raw milliseconds, which ccxt passes through when its table lacks the value (gate 2 h)', () => {
    expect(intervalSecondsOf('7200000')).toBe(7200);
  });
  it('nothing usable is null', () => {
    expect(intervalSecondsOf(undefined)).toBeNull();
    expect(intervalSecondsOf('0h')).toBeNull();
    expect(intervalSecondsOf('-28800000')).toBeNull();
    expect(intervalSecondsOf('soon')).toBeNull();
  });
});

describe('fetchFundingSnapshots: lot-named perpetuals', () => {
  it('gives binance 1000PEPE\'s mark price per PEPE and its ticker as PEPE-USDT', async () => {
    const market = { id: '1000PEPEUSDT', symbol: '1000PEPE/USDT:USDT', active: true, swap: true, linear: true, settle: 'USDT' } as MarketInterface;
    const client = {
      fetchFundingRates: () => Promise.resolve({ '1000PEPE/USDT:USDT': { symbol: '1000PEPE/USDT:USDT', fundingRate: 0.0001, markPrice: 0.0182, fundingTimestamp: 1_800_000_000_000 } }),
      fetchFundingIntervals: () => Promise.resolve({}),
    } as unknown as Exchange;
    const [snapshot] = await fetchFundingSnapshots('binance', client, { [market.symbol]: market });
    // 0.0182 USDT per 1,000 PEPE is 0.0000182 per PEPE.
    expect(snapshot).toMatchObject({ contract: '1000PEPEUSDT', ticker: 'PEPE-USDT', fundingRate: 0.0001 });
    expect(snapshot?.markPrice).toBeCloseTo(0.0000182, 12);
  });
});
