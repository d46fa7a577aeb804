import { describe, expect, it } from 'vitest';
import { packTicks } from '../market-data/ingest/tick-batch.js';
import { MarketTable, encodeMarketRef } from '../market-data/market-table.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import { decodeBatch, decodeMarketRef, encodeBatch } from './tick-codec.js';

describe('tick codec', () => {
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

  it('carries a batch from the ingest table to an API instance whose table was filled from the stored entries', () => {
    const ingest = new MarketTable();
    const btc = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' } as const;
    const eth = { exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT' } as const;
    const [iBtc, iEth] = [ingest.indexOf(btc), ingest.indexOf(eth)];
    const stored = ingest.encoded();
    expect(stored).toEqual({ 0: 'binance|SPOT|BTC-USDT', 1: 'okx|FUTURES|ETH-USDT' });

    // The API instance knows only the first entry so far.
    const api = new MarketTable();
    api.define(0, decodeMarketRef(stored[0] ?? '')!);
    const book = new QuoteBook(new InProcessQuoteTickBus(), { now: () => 10 }, api);
    const wire = encodeBatch(7, packTicks([
      { index: iEth, bid: 50, ask: 51, bidQty: 3, askQty: 4, exchangeTime: 9, receivedAt: 6 },
      { index: iBtc, bid: 100, ask: 101, bidQty: 1, askQty: 2, exchangeTime: null, receivedAt: 5 },
    ]));
    expect(book.applyBatch(decodeBatch(wire)!.batch)).toBe(1);
    expect(book.get('binance', 'SPOT', 'BTC-USDT')).toEqual({ ...btc, bid: 100, ask: 101, bidQty: 1, askQty: 2, exchangeTime: null, receivedAt: 5 });
    expect(book.size).toBe(1);

    api.define(1, decodeMarketRef(stored[1] ?? '')!);
    expect(book.applyBatch(decodeBatch(wire)!.batch)).toBe(0);
    expect(book.get('okx', 'FUTURES', 'ETH-USDT')).toEqual({ ...eth, bid: 50, ask: 51, bidQty: 3, askQty: 4, exchangeTime: 9, receivedAt: 6 });
  });

  it('refuses a malformed market reference, and reads back what the table stores', () => {
    expect(decodeMarketRef('kraken|SPOT|BTC-USDT')).toBeNull();
    expect(decodeMarketRef('okx|MARGIN|BTC-USDT')).toBeNull();
    expect(decodeMarketRef('okx|SPOT|')).toBeNull();
    const ref = { exchange: 'gate', market: 'FUTURES', ticker: '1000PEPE-USDT' } as const;
    expect(decodeMarketRef(encodeMarketRef(ref))).toEqual(ref);
  });
});
