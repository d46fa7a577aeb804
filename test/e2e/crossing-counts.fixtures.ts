import type { MarketSample } from '../../src/market-data/market-sample.repository.js';

/** The São Paulo day under test and the next one; São Paulo is UTC−3 all year since 2019. */
export const DAY = '2026-03-10';
export const NEXT_DAY = '2026-03-11';
export const DAY_START = Date.UTC(2026, 2, 10, 3); // 2026-03-10T00:00-03:00
export const DAY_END = Date.UTC(2026, 2, 11, 3); // 2026-03-11T00:00-03:00, the next day's start
const STEP = 5_000;

/**
 * One sample whose side is `side`: '+' spot mid above futures mid, '-' below, '0' equal.
 * The books are 2 wide around each mid, so bids and asks alone would not give the side.
 */
export function sample(ticker: string, exchange: string, time: number, side: string): MarketSample {
  const spot = side === '+' ? 101 : side === '-' ? 99 : 100;
  return {
    time: new Date(time), ticker, exchange,
    spotBid: spot - 1, spotAsk: spot + 1, futuresBid: 99, futuresAsk: 101, fundingRate: null,
  };
}

/** A series of sides, one every 5 s from `start`. */
export const series = (ticker: string, exchange: string, start: number, sides: string): MarketSample[] =>
  [...sides].map((side, i) => sample(ticker, exchange, start + i * STEP, side));

/**
 * The recorded samples, with their hand-counted crossings per São Paulo day:
 *
 * DAY
 * - BTC-USDT binance: + − 0 − + 0 0 + − 0 + (nonzero + − − + + − +, the last across a touch), then
 *   + at the last millisecond of the day: 4. A − one millisecond before the day and a − exactly
 *   at its end (the next day's first instant) must not count: with either, it would be 5.
 * - ADA-USDT gate, BTC-USDT bitget, BTC-USDT bybit: − + −: 2 each (ties ordered by ticker, exchange).
 * - ETH-USDT okx: + + +: 0, still a record.
 * - SOL-USDT gate: samples only in the previous São Paulo day (after UTC midnight): no record.
 *
 * NEXT_DAY
 * - BTC-USDT binance: the − at its first instant, then + −: 2.
 */
export function designedSamples(): MarketSample[] {
  return [
    sample('BTC-USDT', 'binance', DAY_START - 1, '-'),
    ...series('BTC-USDT', 'binance', DAY_START, '+-0-+00+-0+'),
    sample('BTC-USDT', 'binance', DAY_END - 1, '+'),
    sample('BTC-USDT', 'binance', DAY_END, '-'),
    ...series('BTC-USDT', 'binance', DAY_END + STEP, '+-'),
    ...series('ADA-USDT', 'gate', DAY_START + 60_000, '-+-'),
    ...series('BTC-USDT', 'bitget', DAY_START + 60_000, '-+-'),
    ...series('BTC-USDT', 'bybit', DAY_START + 3_600_000, '-+-'),
    ...series('ETH-USDT', 'okx', DAY_START + 7_200_000, '+++'),
    ...series('SOL-USDT', 'gate', DAY_START - 3_600_000, '+-+-'),
  ];
}

export const EXPECTED_DAY = [
  { ticker: 'BTC-USDT', exchange: 'binance', crossingCount: 4, days: 1 },
  { ticker: 'ADA-USDT', exchange: 'gate', crossingCount: 2, days: 1 },
  { ticker: 'BTC-USDT', exchange: 'bitget', crossingCount: 2, days: 1 },
  { ticker: 'BTC-USDT', exchange: 'bybit', crossingCount: 2, days: 1 },
  { ticker: 'ETH-USDT', exchange: 'okx', crossingCount: 0, days: 1 },
];
