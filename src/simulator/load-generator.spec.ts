import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { binanceProtocol } from './venues/binance/protocol.js';
import { gateProtocol } from './venues/gate/protocol.js';
import { okxProtocol } from './venues/okx/protocol.js';
import { FrameTemplate, LoadGenerator, type LoadTarget, templatesOf } from './load-generator.js';
import { MarketState } from './market-state.js';

describe('FrameTemplate', () => {
  const state = new MarketState(['BTC']);

  it.each([
    ['binance perpetual', binanceProtocol, 'FUTURES'],
    ['okx spot', okxProtocol, 'SPOT'],
    ['gate perpetual', gateProtocol, 'FUTURES'],
  ] as const)('%s: the exchange\'s own rendering with every timestamp set to the send time', (_, protocol, market) => {
    const quote = state.get(protocol.name, market, 'BTC-USDT');
    if (!quote) throw new Error('no quote');
    const now = 1_764_000_123_456;
    const [first, second] = templatesOf(protocol, state, quote);
    expect(first.stamp(now)).toBe(protocol.render({ ...quote, updatedAt: now }, state));
    // The second frame is a change of the same market (one tick up on both sides).
    expect(second.stamp(now)).not.toBe(first.stamp(now));
    expect(JSON.stringify(JSON.parse(second.stamp(now)))).toContain(String(now));
  });

  it('fills gate\'s seconds field with the same instant in seconds', () => {
    const frame = new FrameTemplate('{"time":7777777777,"time_ms":7777777777777,"t":7777777777777}');
    expect(frame.stamp(1_764_000_123_456)).toBe('{"time":1764000123,"time_ms":1764000123456,"t":1764000123456}');
  });
});

describe('LoadGenerator', () => {
  let sent: string[][];
  const target = (key: string): LoadTarget => ({
    key,
    market: 'SPOT',
    send: (frames) => void sent.push([...frames]),
    templates: [new FrameTemplate(`${key}:a:7777777777777`), new FrameTemplate(`${key}:b:7777777777777`)],
  });

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    sent = [];
  });

  afterEach(() => vi.useRealTimers());

  it('sends the rate per second, round-robin over the targets, alternating frames so every message is a change', () => {
    const targets = [target('m1'), target('m2'), target('m3')];
    const load = new LoadGenerator(() => targets, () => Date.now());
    load.start({ rate: 1000, stepMs: 5, burstShare: 0.1 });
    vi.advanceTimersByTime(1000);
    expect(load.sent).toBe(1000);
    const frames = sent.flat();
    const of = (key: string): string[] => frames.filter((f) => f.startsWith(`${key}:`)).map((f) => f.split(':')[1] ?? '');
    // Round-robin: 1000 over three markets; each market's frames alternate between its two quotes.
    expect([of('m1').length, of('m2').length, of('m3').length]).toEqual([334, 333, 333]);
    expect(of('m2').slice(0, 4)).toEqual(['a', 'b', 'a', 'b']);
    expect(frames[0]).toBe('m1:a:1000005'); // stamped with the send time (the fake clock)
    load.stop();
    vi.advanceTimersByTime(1000);
    expect(load.sent).toBe(1000);
  });

  it('bursts: the first tenth of each second carries burstShare of its messages', () => {
    const load = new LoadGenerator(() => [target('m1')], () => Date.now());
    load.start({ rate: 10_000, stepMs: 5, burstShare: 0.3 });
    vi.advanceTimersByTime(100);
    expect(load.sent).toBe(3_000);
    vi.advanceTimersByTime(900);
    expect(load.sent).toBe(10_000);
    expect(load.dueBy(550)).toBe(6_500);
    load.stop();
  });

  it('groups each step\'s frames per connection into one send', () => {
    const shared = (frames: readonly string[]): void => void sent.push([...frames]);
    const targets = [{ ...target('m1'), send: shared }, { ...target('m2'), send: shared }];
    const load = new LoadGenerator(() => targets, () => Date.now());
    load.start({ rate: 2000, stepMs: 10, burstShare: 0.1 });
    vi.advanceTimersByTime(10);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(20);
    load.stop();
  });
});
