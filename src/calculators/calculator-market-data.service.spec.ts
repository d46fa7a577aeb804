import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/validate-env.js';
import { CalculatorMarketData } from './calculator-market-data.service.js';
import type { LatestSample, LatestSampleReader } from './latest-sample-reader.js';

const T0 = Date.UTC(2026, 0, 10, 12);
const MIN = 60_000;

/** A reader over an in-memory list, counting queries; `hold` keeps queries pending. */
function fakeReader() {
  const samples: (LatestSample & { ticker: string; exchange: string })[] = [];
  const reader: LatestSampleReader = {
    latestSample: vi.fn((ticker: string, exchange: string, notOlderThan: Date) => {
      const found = samples
        .filter((s) => s.ticker === ticker && s.exchange === exchange && s.time >= notOlderThan)
        .sort((a, b) => b.time.getTime() - a.time.getTime())[0];
      return Promise.resolve(found ?? null);
    }),
  };
  const add = (time: number, spotBid: number, futuresAsk: number, ticker = 'BTC-USDT', exchange = 'binance') =>
    samples.push({ ticker, exchange, time: new Date(time), spotBid, futuresAsk, fundingRate: null });
  return { reader, add, calls: () => vi.mocked(reader.latestSample).mock.calls.length };
}

/** The service on the DEFAULT configuration (55 s, 5 s, 20 min) with a hand-moved clock. */
function setup() {
  const r = fakeReader();
  const service = new CalculatorMarketData(loadConfig({ LOG_LEVEL: 'silent' }), r.reader);
  let now = T0;
  service.now = () => now;
  return { ...r, service, advance: (ms: number) => (now += ms) };
}

describe('calculator market data (rules: calculator-market-data, calculator, limits)', () => {
  it('the defaults are 55 s, 5 s and 20 minutes', () => {
    expect(loadConfig({}).calculator).toEqual({ processCacheMs: 55_000, streamCacheMs: 5000, marketDataMaxAgeMs: 20 * MIN });
  });

  it('returns the spot BID, the futures ASK, the funding rate and the time of the latest sample', async () => {
    const { service, add } = setup();
    add(T0 - 10_000, 100, 111);
    add(T0 - 5000, 101, 112);
    expect(await service.forProcess('BTC-USDT', 'binance')).toEqual({ spotBid: 101, futuresAsk: 112, fundingRate: null, at: new Date(T0 - 5000) });
  });

  it('asks for samples no older than 20 minutes', async () => {
    const { service, reader } = setup();
    await service.forProcess('BTC-USDT', 'binance');
    expect(reader.latestSample).toHaveBeenCalledWith('BTC-USDT', 'binance', new Date(T0 - 20 * MIN));
  });

  it('a sample of 20 minutes is market data, one of 20 minutes and 1 ms is not', async () => {
    const a = setup();
    a.add(T0 - 20 * MIN, 100, 110);
    expect(await a.service.forProcess('BTC-USDT', 'binance')).not.toBeNull();
    const b = setup();
    b.add(T0 - 20 * MIN - 1, 100, 110);
    expect(await b.service.forProcess('BTC-USDT', 'binance')).toBeNull();
  });

  it('process: reuses the data for 55 s per (ticker, exchange), then reads again', async () => {
    const { service, add, advance, calls } = setup();
    add(T0 - 1000, 100, 110);
    await service.forProcess('BTC-USDT', 'binance');
    add(T0 + 1000, 200, 210);
    advance(54_999);
    expect((await service.forProcess('BTC-USDT', 'binance'))?.spotBid).toBe(100);
    expect(calls()).toBe(1);
    advance(1);
    expect((await service.forProcess('BTC-USDT', 'binance'))?.spotBid).toBe(200);
    expect(calls()).toBe(2);
  });

  it('process: other keys are cached separately', async () => {
    const { service, add, calls } = setup();
    add(T0 - 1000, 100, 110, 'BTC-USDT', 'binance');
    add(T0 - 1000, 300, 310, 'BTC-USDT', 'bybit');
    add(T0 - 1000, 5, 6, 'ETH-USDT', 'binance');
    expect((await service.forProcess('BTC-USDT', 'binance'))?.spotBid).toBe(100);
    expect((await service.forProcess('BTC-USDT', 'bybit'))?.spotBid).toBe(300);
    expect((await service.forProcess('ETH-USDT', 'binance'))?.spotBid).toBe(5);
    expect(calls()).toBe(3);
  });

  it('process: a miss is not cached, so data that arrives is seen on the next call', async () => {
    const { service, add, advance, calls } = setup();
    expect(await service.forProcess('BTC-USDT', 'binance')).toBeNull();
    add(T0 + 500, 100, 110);
    advance(1000);
    expect(await service.forProcess('BTC-USDT', 'binance')).not.toBeNull();
    expect(calls()).toBe(2);
  });

  it('a cached sample that ages past 20 minutes is no longer served', async () => {
    const { service, add, advance } = setup();
    add(T0 - 20 * MIN + 30_000, 100, 110); // 19.5 minutes old when read
    expect(await service.forProcess('BTC-USDT', 'binance')).not.toBeNull();
    advance(30_001); // still inside the 55 s window, but now older than 20 minutes
    expect(await service.forProcess('BTC-USDT', 'binance')).toBeNull();
  });

  it('stream: reuses the data for 5 s, misses included, and is separate from the process cache', async () => {
    const { service, add, advance, calls } = setup();
    expect(await service.forStream('BTC-USDT', 'binance')).toBeNull();
    add(T0 + 100, 100, 110);
    advance(4999);
    expect(await service.forStream('BTC-USDT', 'binance')).toBeNull();
    expect(calls()).toBe(1);
    advance(1);
    expect((await service.forStream('BTC-USDT', 'binance'))?.spotBid).toBe(100);
    expect(calls()).toBe(2);
    await service.forProcess('BTC-USDT', 'binance');
    expect(calls()).toBe(3);
  });

  it('concurrent misses on one key make one query', async () => {
    const { service, add, calls } = setup();
    add(T0 - 1000, 100, 110);
    const results = await Promise.all(Array.from({ length: 20 }, () => service.forProcess('BTC-USDT', 'binance')));
    expect(results.every((r) => r?.spotBid === 100)).toBe(true);
    expect(calls()).toBe(1);
  });

  it('a sample with a non-positive price is not usable market data', async () => {
    const { service, add } = setup();
    add(T0 - 1000, 0, 110);
    expect(await service.forProcess('BTC-USDT', 'binance')).toBeNull();
  });
});
