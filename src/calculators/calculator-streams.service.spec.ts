import { Subject, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../common/errors/app-error.js';
import type { SseFrame } from '../common/sse/sse-frame.js';
import { CalculatorEntity } from './calculator.entity.js';
import type { CalculatorMarketData, MarketReading } from './calculator-market-data.service.js';
import { CalculatorStreamsService } from './calculator-streams.service.js';
import type { CalculatorChange, CalculatorsService } from './calculators.service.js';

function entry(values: Partial<CalculatorEntity> = {}): CalculatorEntity {
  return Object.assign(new CalculatorEntity(), {
    id: 'c1',
    email: 'a@example.com',
    ticker: 'BTC-USDT',
    entrySpotValue: 100,
    entryShortValue: 110,
    entrySpotQty: 1,
    entryFuturesQty: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...values,
  });
}

const SAMPLED_AT = new Date('2026-11-26T12:00:00.000Z');

/** Explicit fakes: the stored entry, the change feed, and market data the test sets. */
function setup() {
  const changes = new Subject<CalculatorChange>();
  let stored: CalculatorEntity | null = entry();
  let market: MarketReading | null | Error = { spotBid: 105, futuresAsk: 108, fundingRate: null, at: SAMPLED_AT };
  const reads = vi.fn();
  const calculators = {
    changes$: changes.asObservable(),
    getEntry: () => (stored ? Promise.resolve(stored) : Promise.reject(AppError.notFound('calculator not found'))),
  } as unknown as CalculatorsService;
  const marketData = {
    forStream: (ticker: string, exchange: string) => {
      reads(ticker, exchange);
      return market instanceof Error ? Promise.reject(market) : Promise.resolve(market);
    },
  } as unknown as CalculatorMarketData;
  const service = new CalculatorStreamsService(calculators, marketData);
  return {
    service,
    changes,
    reads,
    setMarket: (m: MarketReading | null | Error) => (market = m),
    setStored: (e: CalculatorEntity | null) => (stored = e),
  };
}

const text = (f: SseFrame): string => f.bytes.toString('utf8');
const pnlOf = (f: SseFrame): number => (JSON.parse(text(f).replace(/^data: /, '')) as { pnl: number }).pnl;

describe('calculator streams (rules: calculator, streams)', () => {
  const subs: Subscription[] = [];
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    vi.useRealTimers();
  });

  const collect = async (s: ReturnType<typeof setup>, exchange = 'binance') => {
    const frames: SseFrame[] = [];
    const frames$ = await s.service.open({ email: 'a@example.com', ticker: 'BTC-USDT', exchange });
    const done = { completed: false };
    subs.push(frames$.subscribe({ next: (f) => frames.push(f), complete: () => (done.completed = true) }));
    return { frames, done };
  };

  it('refuses a missing entry before returning any stream', async () => {
    const s = setup();
    s.setStored(null);
    await expect(s.service.open({ email: 'a@example.com', ticker: 'BTC-USDT', exchange: 'binance' })).rejects.toThrow(
      'calculator not found',
    );
    expect(s.service.activeStreams).toBe(0);
  });

  it('one PNL frame at once, then exactly one per second', async () => {
    const s = setup();
    const { frames } = await collect(s);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toHaveLength(1);
    expect(text(frames[0])).toMatch(/^data: \{"email":"a@example.com","ticker":"BTC-USDT","exchange":"binance",/);
    expect(pnlOf(frames[0])).toBe(7); // (105 − 100) + (110 − 108)
    await vi.advanceTimersByTimeAsync(3000);
    expect(frames).toHaveLength(4);
  });

  it('sends the market-data-missing frame (rules: market-data-missing) while data is missing, and PNL when it returns', async () => {
    const s = setup();
    s.setMarket(null);
    const { frames } = await collect(s);
    await vi.advanceTimersByTimeAsync(1000);
    expect(frames.map(text)).toEqual([
      'event: market-data-missing\ndata: {"message":"market data not found"}\n\n',
      'event: market-data-missing\ndata: {"message":"market data not found"}\n\n',
    ]);
    s.setMarket({ spotBid: 100, futuresAsk: 110, fundingRate: 0.01, at: SAMPLED_AT });
    await vi.advanceTimersByTimeAsync(1000);
    expect(text(frames[2])).toMatch(/^data: .*"fundingRate":0.01,"pnl":0,"pnlPercentage":0,"isProfitable":false,"marketDataAt":"2026-11-26T12:00:00.000Z"\}\n\n$/);
  });

  it('a failed read skips that tick only', async () => {
    const s = setup();
    s.setMarket(new Error('db down'));
    const { frames, done } = await collect(s);
    await vi.advanceTimersByTimeAsync(1000);
    expect(frames).toHaveLength(0);
    s.setMarket({ spotBid: 105, futuresAsk: 108, fundingRate: null, at: SAMPLED_AT });
    await vi.advanceTimersByTimeAsync(1000);
    expect(frames).toHaveLength(1);
    expect(done.completed).toBe(false);
  });

  it('clients of one (email, ticker, exchange) share one upstream and the same frame objects', async () => {
    const s = setup();
    const a = await collect(s);
    const b = await collect(s);
    await vi.advanceTimersByTimeAsync(2000);
    expect(s.service.activeStreams).toBe(1);
    expect(s.reads).toHaveBeenCalledTimes(3);
    expect(b.frames.at(-1)).toBe(a.frames.at(-1));
    const other = await collect(s, 'okx');
    await vi.advanceTimersByTimeAsync(0);
    expect(s.service.activeStreams).toBe(2);
    expect(other.frames).toHaveLength(1);
  });

  it('a late joiner gets the current frame at once', async () => {
    const s = setup();
    await collect(s);
    await vi.advanceTimersByTimeAsync(1500);
    const late = await collect(s);
    expect(late.frames).toHaveLength(1);
  });

  it('follows a save at once, and ends when the entry is deleted', async () => {
    const s = setup();
    const { frames, done } = await collect(s);
    await vi.advanceTimersByTimeAsync(0);
    s.changes.next({ email: 'a@example.com', ticker: 'BTC-USDT', entry: entry({ entrySpotQty: 3 }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(pnlOf(frames.at(-1) as SseFrame)).toBe(17); // (105 − 100) × 3 + (110 − 108)
    s.changes.next({ email: 'other@example.com', ticker: 'BTC-USDT', entry: null });
    expect(done.completed).toBe(false);
    s.changes.next({ email: 'a@example.com', ticker: 'BTC-USDT', entry: null });
    expect(done.completed).toBe(true);
    expect(s.service.activeStreams).toBe(0);
  });

  it('stops every timer and read when the last client leaves', async () => {
    const s = setup();
    await collect(s);
    await collect(s);
    await vi.advanceTimersByTimeAsync(1000);
    subs.splice(0).forEach((sub) => sub.unsubscribe());
    expect(s.service.activeStreams).toBe(0);
    const reads = s.reads.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.reads).toHaveBeenCalledTimes(reads);
    expect(vi.getTimerCount()).toBe(0);
  });
});
