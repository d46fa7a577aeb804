import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../market-model/exchanges.js';
import { packTicks } from './ingest/tick-batch.js';
import { MarketTable } from './market-table.js';
import { LATENCY_BUCKETS_MS, TickLatency } from './tick-latency.js';

const table = new MarketTable();
// Indexes in an order unlike EXCHANGE_NAMES', so a latency counted under the index's position shows.
for (const exchange of ['gate', 'okx', 'bybit', 'binance'] as const) table.indexOf({ exchange, market: 'SPOT', ticker: 'BTC-USDT' });

/** A one-entry batch of the exchange's BTC-USDT spot market. */
const tick = (exchange: ExchangeName, exchangeTime: number | null, receivedAt: number): Float64Array =>
  packTicks([{ index: table.indexOf({ exchange, market: 'SPOT', ticker: 'BTC-USDT' }), bid: 1, ask: 2, bidQty: 1, askQty: 1, exchangeTime, receivedAt }]);
const recordTick = (latency: TickLatency, batch: Float64Array, now: number): void => latency.recordBatch(batch, table, now);

describe('TickLatency', () => {
  it('puts each stage of a tick in its bucket (upper bounds inclusive), per exchange', () => {
    const latency = new TickLatency();
    // exchange 1000 → worker 1003 (3 ms) → book 1004 (1 ms); 4 ms end to end.
    recordTick(latency, tick('okx', 1000, 1003), 1004);
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
    recordTick(latency, tick('binance', null, 500), 520);
    expect(latency.read('worker_to_book', 'binance')).toMatchObject({ count: 1, sumMs: 20 });
    expect(latency.read('exchange_to_worker', 'binance').count).toBe(0);
    expect(latency.read('exchange_to_book', 'binance').count).toBe(0);
  });

  it('records every entry of a batch under its own exchange, and skips a market the table does not know', () => {
    const latency = new TickLatency();
    const entry = { bid: 1, ask: 2, bidQty: 1, askQty: 1 };
    const batch = packTicks([
      { ...entry, index: table.indexOf({ exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT' }), exchangeTime: 100, receivedAt: 110 },
      { ...entry, index: 99, exchangeTime: 100, receivedAt: 110 },
      { ...entry, index: table.indexOf({ exchange: 'bybit', market: 'SPOT', ticker: 'BTC-USDT' }), exchangeTime: null, receivedAt: 130 },
    ]);
    latency.recordBatch(batch, table, 150);
    expect(latency.read('exchange_to_worker', 'okx')).toMatchObject({ count: 1, sumMs: 10 });
    expect(latency.read('worker_to_book', 'okx')).toMatchObject({ count: 1, sumMs: 40 });
    expect(latency.read('exchange_to_book', 'okx')).toMatchObject({ count: 1, sumMs: 50 });
    expect(latency.read('worker_to_book', 'bybit')).toMatchObject({ count: 1, sumMs: 20 });
    expect(latency.read('exchange_to_book', 'bybit').count).toBe(0);
    for (const exchange of ['binance', 'gate', 'bitget'] as const) expect(latency.read('worker_to_book', exchange).count).toBe(0);
  });

  it('answers percentiles as the bucket bound that covers them, over all exchanges', () => {
    const latency = new TickLatency();
    for (let i = 0; i < 98; i++) recordTick(latency, tick('gate', null, 0), 3);
    recordTick(latency, tick('bybit', null, 0), 40);
    recordTick(latency, tick('bybit', null, 0), 9_000);
    expect(latency.percentileMs('worker_to_book', 50)).toBe(5);
    expect(latency.percentileMs('worker_to_book', 99)).toBe(50);
    expect(latency.percentileMs('worker_to_book', 100)).toBe(Infinity);
    expect(latency.percentileMs('exchange_to_book', 50)).toBeNull();
  });
});
