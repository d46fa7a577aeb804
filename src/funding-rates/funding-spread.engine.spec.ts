import { describe, expect, it } from 'vitest';
import { bestSpread, rankSpreads, type SpreadLegInput } from './funding-spread.engine.js';

function legOf(exchange: string, fundingRate: number, hours: number, apr: number, over: Partial<SpreadLegInput> = {}): SpreadLegInput {
  return { exchange, fundingRate, intervalSeconds: hours * 3600, apr, settledApr: null, apr7d: null, mid: null, ...over };
}

describe('bestSpread: long the lowest annualised funding, short the highest', () => {
  it('binance 0.01 %/8 h (10.95 %), bybit −0.02 %/4 h (−43.8 %), okx 0.03 %/1 h (262.8 %): long bybit, short okx, 306.6', () => {
    const s = bestSpread('SOL-USDT', [
      legOf('binance', 0.0001, 8, 10.95), legOf('bybit', -0.0002, 4, -43.8), legOf('okx', 0.0003, 1, 262.8),
    ]);
    expect(s).toEqual({
      ticker: 'SOL-USDT',
      long: { exchange: 'bybit', fundingRate: -0.0002, intervalHours: 4, ratePerHour: -0.00005, apr: -43.8 },
      short: { exchange: 'okx', fundingRate: 0.0003, intervalHours: 1, ratePerHour: 0.0003, apr: 262.8 },
      aprSpread: 306.6, avgAprSpread7d: null, avgAprSpread: null, basisPercent: null,
    });
  });

  it('settled spreads and the basis: 7 d 30 − (−5) = 35; mid 101 vs 100 → 1 %', () => {
    const s = bestSpread('BTC-USDT', [
      legOf('gate', 0.0001, 8, 10.95, { apr7d: -5, settledApr: 2, mid: 100 }),
      legOf('bitget', 0.0002, 8, 21.9, { apr7d: 30, settledApr: 12.5, mid: 101 }),
    ]);
    expect(s).toMatchObject({ aprSpread: 10.95, avgAprSpread7d: 35, avgAprSpread: 10.5, basisPercent: 1 });
  });

  it('a negative basis: the short trades below the long (99.5 vs 100 → −0.5 %)', () => {
    const s = bestSpread('X-USDT', [legOf('a', 0, 8, 0, { mid: 100 }), legOf('b', 0.0001, 8, 10.95, { mid: 99.5 })]);
    expect(s?.basisPercent).toBe(-0.5);
  });

  it('one settled side unknown → the settled spread is null', () => {
    const s = bestSpread('X-USDT', [legOf('a', 0, 8, 0, { apr7d: 3 }), legOf('b', 0.0001, 8, 10.95)]);
    expect(s?.avgAprSpread7d).toBeNull();
  });

  it('equal APRs still give two different exchanges, chosen by name: long binance, short bybit, spread 0', () => {
    const s = bestSpread('X-USDT', [legOf('okx', 0.0001, 8, 10.95), legOf('bybit', 0.0001, 8, 10.95), legOf('binance', 0.0001, 8, 10.95)]);
    expect([s?.long.exchange, s?.short.exchange, s?.aprSpread]).toEqual(['binance', 'bybit', 0]);
  });

  it('ties at the top: the short is the first by name among the highest', () => {
    const s = bestSpread('X-USDT', [legOf('okx', 0.0002, 8, 21.9), legOf('gate', 0.0002, 8, 21.9), legOf('binance', 0, 8, 0)]);
    expect([s?.long.exchange, s?.short.exchange]).toEqual(['binance', 'gate']);
  });

  it('a coin on one exchange has no spread', () => {
    expect(bestSpread('X-USDT', [legOf('okx', 0.0001, 8, 10.95)])).toBeNull();
  });
});

describe('rankSpreads: largest aprSpread first, equal spreads by ticker', () => {
  it('orders by spread, ties by ticker in code-unit order, drops single-venue coins', () => {
    const ranked = rankSpreads(new Map([
      ['SOL-USDT', [legOf('a', 0, 8, 0), legOf('b', 0.0001, 8, 10.95)]],
      ['BTC-USDT', [legOf('a', 0, 8, 0), legOf('b', 0.0002, 8, 21.9)]],
      ['ADA-USDT', [legOf('a', 0, 8, 0), legOf('b', 0.0001, 8, 10.95)]],
      ['1INCH-USDT', [legOf('a', 0, 8, 0), legOf('b', 0.0001, 8, 10.95)]],
      ['ETH-USDT', [legOf('a', 0.0001, 8, 10.95)]],
    ]));
    expect(ranked.map((s) => `${s.ticker}:${s.aprSpread}`)).toEqual(['BTC-USDT:21.9', '1INCH-USDT:10.95', 'ADA-USDT:10.95', 'SOL-USDT:10.95']);
  });
});
