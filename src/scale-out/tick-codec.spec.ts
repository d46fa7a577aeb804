import { describe, expect, it } from 'vitest';
import type { QuoteTick } from '../market-data/market-data-source.js';
import { TICK_STRIDE } from '../market-data/ingest/tick-batch.js';
import { MarketIndex, decodeBatch, decodeMarketRef, encodeBatch, encodeMarketRef, ticksOf } from './tick-codec.js';

describe('tick codec (issue 20)', () => {
  it('round-trips a batch with its epoch, even from an unaligned buffer', () => {
    const batch = Float64Array.from([0, 100, 101, 1, 2, NaN, 1_700_000_000_000, 1, 50, 51, 3, 4, 1_699_999_999_999, 1_700_000_000_001]);
    const wire = encodeBatch(42, batch);
    expect(wire.byteLength).toBe((batch.length + 1) * 8);
    const unaligned = Buffer.concat([Buffer.alloc(3), wire]).subarray(3);
    const decoded = decodeBatch(unaligned);
    expect(decoded?.epoch).toBe(42);
    expect([...(decoded?.batch ?? [])]).toEqual([...batch]);
    expect(decodeBatch(Buffer.alloc(7))).toBeNull();
  });

  it('turns entries into ticks by the table, and counts the indexes it does not know', () => {
    const index = new MarketIndex();
    const btc = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' } as const;
    expect(index.indexOf(btc)).toEqual({ index: 0, added: true });
    expect(index.indexOf(btc)).toEqual({ index: 0, added: false });
    expect(index.indexOf({ ...btc, exchange: 'okx' })).toEqual({ index: 1, added: true });
    expect(index.table()).toEqual({ 0: 'binance|SPOT|BTC-USDT', 1: 'okx|SPOT|BTC-USDT' });
    const table = new Map([[0, decodeMarketRef(encodeMarketRef(btc))!]]);
    const batch = Float64Array.from([0, 100, 101, 1, 2, NaN, 5, 1, 50, 51, 3, 4, 9, 6]);
    expect(batch.length).toBe(2 * TICK_STRIDE);
    const ticks: QuoteTick[] = [];
    expect(ticksOf(batch, table, (t) => ticks.push(t))).toBe(1);
    expect(ticks).toEqual([{ ...btc, bid: 100, ask: 101, bidQty: 1, askQty: 2, exchangeTime: null, receivedAt: 5 }]);
  });

  it('refuses a malformed market reference', () => {
    expect(decodeMarketRef('kraken|SPOT|BTC-USDT')).toBeNull();
    expect(decodeMarketRef('okx|MARGIN|BTC-USDT')).toBeNull();
    expect(decodeMarketRef('okx|SPOT|')).toBeNull();
  });
});
