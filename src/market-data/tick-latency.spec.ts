import { describe, expect, it } from 'vitest';
import type { QuoteTick } from './market-data-source.js';
import { LATENCY_BUCKETS_MS, TickLatency } from './tick-latency.js';

const tick = (exchange: QuoteTick['exchange'], exchangeTime: number | null, receivedAt: number): QuoteTick => ({
  exchange, market: 'SPOT', ticker: 'BTC-USDT', bid: 1, ask: 2, bidQty: 1, askQty: 1, exchangeTime, receivedAt,
});

describe('TickLatency', () => {
  it('puts each stage of a tick in its bucket (upper bounds inclusive), per exchange', () => {
    const latency = new TickLatency();
    // exchange 1000 → worker 1003 (3 ms) → book 1004 (1 ms); 4 ms end to end.
    latency.recordTick(tick('okx', 1000, 1003), 1004);
    const at = (ms: number): number => LATENCY_BUCKETS_MS.indexOf(ms as (typeof LATENCY_BUCKETS_MS)[number]);
    const toWorker = latency.read('exchange_to_worker', 'okx');
    expect(toWorker.count).toBe(1);
    expect(toWorker.sumMs).toBe(3);
    expect(toWorker.buckets[at(2)]).toBe(0);
    expect(toWorker.buckets[at(5)]).toBe(1);
    // Buckets are cumulative: every bound above holds it too, +Inf last.
    expect(toWorker.buckets.at(-1)).toBe(1);
    expect(latency.read('worker_to_book', 'okx').buckets[at(1)]).toBe(1);
    expect(latency.read('exchange_to_book', 'okx').sumMs).toBe(4);
    expect(latency.read('worker_to_book', 'binance').count).toBe(0);
  });

  it('records only the serving-side stage for a message without an exchange time', () => {
    const latency = new TickLatency();
    latency.recordTick(tick('binance', null, 500), 520);
    expect(latency.read('worker_to_book', 'binance')).toMatchObject({ count: 1, sumMs: 20 });
    expect(latency.read('exchange_to_worker', 'binance').count).toBe(0);
    expect(latency.read('exchange_to_book', 'binance').count).toBe(0);
  });

  it('answers percentiles as the bucket bound that covers them, over all exchanges', () => {
    const latency = new TickLatency();
    for (let i = 0; i < 98; i++) latency.recordTick(tick('gate', null, 0), 3);
    latency.recordTick(tick('bybit', null, 0), 40);
    latency.recordTick(tick('bybit', null, 0), 9_000);
    expect(latency.percentileMs('worker_to_book', 50)).toBe(5);
    expect(latency.percentileMs('worker_to_book', 99)).toBe(50);
    expect(latency.percentileMs('worker_to_book', 100)).toBe(Infinity);
    expect(latency.percentileMs('exchange_to_book', 50)).toBeNull();
  });
});
