import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SseFrame } from '../common/sse/sse-frame.js';
import { loadConfig } from '../config/validate-env.js';
import type { QuoteTick } from '../market-data/market-data-source.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import type { LookerWatch } from './looker-price.engine.js';
import { LookerStreamClock } from './looker-stream.clock.js';
import { LookerStreamsService } from './looker-streams.service.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

function setup(env: Record<string, string> = { ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance,bybit' }) {
  const clock = { t: T0 };
  const book = new QuoteBook(new InProcessQuoteTickBus(), { now: () => clock.t });
  const beats = new LookerStreamClock(1000, () => clock.t);
  const service = new LookerStreamsService(loadConfig(env), book, beats);
  return { clock, book, beats, service };
}

const tick = (ticker: string, bid: number, receivedAt = T0): QuoteTick => ({
  exchange: 'binance', market: 'SPOT', ticker, bid, ask: bid + 1, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt,
});

const watch = (...tickers: string[]): LookerWatch => ({ exchange: 'binance', market: 'SPOT', tickers });
const events = (frame: SseFrame | undefined) =>
  (frame?.bytes.toString('utf8').match(/^data: .*$/gm) ?? []).map((line) => JSON.parse(line.slice(6)) as { ticker: string; bid: number | null; stale: boolean });

describe('looker streams (rules: lookers; shared clock, one batch per looker per beat)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('sends the current batch at once, then one batch per beat with one event per crypto in order', () => {
    const { book, beats, service } = setup();
    book.apply(tick('BTC-USDT', 100));
    const got: SseFrame[] = [];
    const sub = service.frames('a', watch('ETH-USDT', 'BTC-USDT')).subscribe((f) => got.push(f));
    expect(got).toHaveLength(1);
    beats.beat();
    beats.beat();
    expect(got).toHaveLength(3);
    for (const frame of got) {
      expect(events(frame).map((e) => [e.ticker, e.bid, e.stale])).toEqual([
        ['ETH-USDT', null, true],
        ['BTC-USDT', 100, false],
      ]);
    }
    sub.unsubscribe();
  });

  it('clients of one looker share ONE clock subscription and the same frame object per beat', () => {
    const { beats, service } = setup();
    const a: SseFrame[] = [];
    const b: SseFrame[] = [];
    const subs = [service.frames('x', watch('BTC-USDT')).subscribe((f) => a.push(f)), service.frames('x', watch('BTC-USDT')).subscribe((f) => b.push(f))];
    expect(beats.subscriberCount).toBe(1);
    beats.beat();
    expect(a.at(-1)).toBe(b.at(-1));
    subs.forEach((s) => s.unsubscribe());
    expect(service.stats()).toEqual({ lookers: 0, clients: 0, clockSubscribers: 0, clockRunning: false });
  });

  it('serialises each (exchange, market, ticker) once per beat however many lookers watch it', () => {
    const { book, beats, service } = setup();
    book.apply(tick('BTC-USDT', 100));
    const subs = Array.from({ length: 50 }, (_, i) => service.frames(`l${i}`, watch('BTC-USDT', 'ETH-USDT')).subscribe());
    const stringify = vi.spyOn(JSON, 'stringify');
    beats.beat();
    expect(stringify).toHaveBeenCalledTimes(2);
    subs.forEach((s) => s.unsubscribe());
  });

  it('every event is stale when ENABLED_WEBSOCKET is off, or the looker’s exchange has no feed', () => {
    for (const [env, exchange] of [
      [{ ENABLED_WEBSOCKET: '0' }, 'binance'],
      [{ ENABLED_WEBSOCKET: '1', EXCHANGES: 'bybit' }, 'binance'],
    ] as const) {
      const { book, service } = setup(env);
      book.apply(tick('BTC-USDT', 100));
      let frame: SseFrame | undefined;
      const sub = service.frames('a', { exchange, market: 'SPOT', tickers: ['BTC-USDT'] }).subscribe((f) => (frame = f));
      expect(events(frame)).toMatchObject([{ ticker: 'BTC-USDT', bid: 100, stale: true }]);
      sub.unsubscribe();
    }
  });

  it('turns stale on the beat after the last tick becomes older than 10 s (fake clock)', () => {
    const { clock, book, beats, service } = setup();
    book.apply(tick('BTC-USDT', 100));
    const got: SseFrame[] = [];
    const sub = service.frames('a', watch('BTC-USDT')).subscribe((f) => got.push(f));
    clock.t = T0 + 10_000;
    beats.beat();
    expect(events(got.at(-1))[0]?.stale).toBe(false);
    clock.t = T0 + 10_001;
    beats.beat();
    expect(events(got.at(-1))[0]?.stale).toBe(true);
    sub.unsubscribe();
  });

  it('update() changes the cryptos from the next beat; end() completes every client', () => {
    const { beats, service } = setup();
    const got: SseFrame[] = [];
    let completed = 0;
    service.frames('a', watch('BTC-USDT')).subscribe({ next: (f) => got.push(f), complete: () => completed++ });
    service.frames('a', watch('BTC-USDT')).subscribe({ complete: () => completed++ });
    service.update('a', watch('SOL-USDT', 'ETH-USDT'));
    beats.beat();
    expect(events(got.at(-1)).map((e) => e.ticker)).toEqual(['SOL-USDT', 'ETH-USDT']);
    service.end('a');
    expect(completed).toBe(2);
    expect(service.stats()).toEqual({ lookers: 0, clients: 0, clockSubscribers: 0, clockRunning: false });
  });

  it('a looker without cryptos sends nothing', () => {
    const { beats, service } = setup();
    const got: SseFrame[] = [];
    const sub = service.frames('a', watch()).subscribe((f) => got.push(f));
    beats.beat();
    expect(got).toEqual([]);
    sub.unsubscribe();
  });
});

describe('looker stream clock', () => {
  afterEach(() => vi.useRealTimers());

  it('runs ONE timer while it has listeners, beats every interval, and stops with the last listener', () => {
    vi.useFakeTimers();
    const clock = new LookerStreamClock(1000);
    const seen: number[] = [];
    const offA = clock.subscribe((b) => seen.push(b.seq));
    const offB = clock.subscribe(() => undefined);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(seen).toEqual([1, 2, 3]);
    offA();
    expect(clock.running).toBe(true);
    offB();
    expect(clock.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3000);
    expect(seen).toEqual([1, 2, 3]);
  });
});
