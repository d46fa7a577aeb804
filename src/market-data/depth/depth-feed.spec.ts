import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WindowPacer } from '../ccxt/window-pacer.js';
import type { BookLevel } from './depth-book.js';
import { type DepthClient, type DepthClientBook, DepthFeed, RESUBSCRIBE_AFTER_MS } from './depth-feed.js';

const clock = { now: () => Date.now() };

/** A ccxt client stand-in: records each request; a test decides each subscription's fate. */
class FakeDepthClient implements DepthClient {
  readonly orderbooks: Record<string, DepthClientBook | undefined> = {};
  readonly requests: string[] = [];
  messages = 0;
  refuse = new Set<string>();

  subscribe(symbols: string[]): Promise<unknown> {
    this.requests.push(`sub ${symbols.join(',')}`);
    return symbols.some((s) => this.refuse.has(s)) ? Promise.reject(new Error('refused')) : new Promise(() => undefined);
  }

  unsubscribe(symbols: string[]): Promise<unknown> {
    this.requests.push(`unsub ${symbols.join(',')}`);
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const book = (bid: number, ask: number, levels = 1, timestamp = 1): DepthClientBook => ({
  bids: Array.from({ length: levels }, (_, i) => [bid - i, 1 + i]),
  asks: Array.from({ length: levels }, (_, i) => [ask + i, 1 + i]),
  timestamp,
});

function feed(client: FakeDepthClient, over: Partial<ConstructorParameters<typeof DepthFeed>[0]> = {}): DepthFeed {
  return new DepthFeed({ client, perSubscribe: 2, perUnsubscribe: 2, pacers: [], clock, retryMs: 1000, ...over });
}

describe('DepthFeed: the books one exchange holds, inside an ingest worker', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 10_000 }));
  afterEach(() => void vi.useRealTimers());

  it('subscribes the wanted books in requests of at most perSubscribe symbols', async () => {
    const client = new FakeDepthClient();
    const f = feed(client);
    f.hold(new Map([['A/USDT', 1], ['B/USDT', 2], ['C/USDT', 3]]));
    await vi.advanceTimersByTimeAsync(0);
    expect(client.requests).toEqual(['sub A/USDT,B/USDT', 'sub C/USDT']);
    expect(f.subscribed).toEqual(['A/USDT', 'B/USDT', 'C/USDT']);
  });

  it('a book no longer wanted is unsubscribed, before any new subscribe', async () => {
    const client = new FakeDepthClient();
    const f = feed(client);
    f.hold(new Map([['A/USDT', 1], ['B/USDT', 2]]));
    await vi.advanceTimersByTimeAsync(0);
    f.hold(new Map([['B/USDT', 2], ['C/USDT', 3]]));
    await vi.advanceTimersByTimeAsync(0);
    expect(client.requests).toEqual(['sub A/USDT,B/USDT', 'unsub A/USDT', 'sub C/USDT']);
    expect(f.subscribed.sort()).toEqual(['B/USDT', 'C/USDT']);
  });

  it('poll reports a book when its state changed, its top 20 levels a side, under its id', async () => {
    const client = new FakeDepthClient();
    const f = feed(client);
    f.hold(new Map([['A/USDT', 7]]));
    await vi.advanceTimersByTimeAsync(0);
    const seen: { id: number; at: number; bids: BookLevel[]; asks: BookLevel[] }[] = [];
    const emit = (id: number, at: number, bids: BookLevel[], asks: BookLevel[]): number => seen.push({ id, at, bids, asks });
    f.poll(emit);
    expect(seen).toEqual([]); // no state yet
    client.orderbooks['A/USDT'] = book(100, 101, 30);
    f.poll(emit);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id: 7, at: 10_000 });
    expect(seen[0]?.bids).toHaveLength(20);
    expect(seen[0]?.bids[0]).toEqual([100, 1]);
    expect(seen[0]?.asks[19]).toEqual([120, 20]);
    f.poll(emit);
    expect(seen).toHaveLength(1); // unchanged: not reported again
    client.orderbooks['A/USDT'] = book(100, 101, 30, 2);
    f.poll(emit);
    expect(seen).toHaveLength(2);
  });

  it('a refused subscription is tried again after retryMs', async () => {
    const client = new FakeDepthClient();
    client.refuse.add('A/USDT');
    const errors: string[] = [];
    const f = feed(client, { onError: (symbols, reason) => errors.push(`${symbols.join(',')}: ${reason}`) });
    f.hold(new Map([['A/USDT', 1]]));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual(['A/USDT: Error: refused']);
    expect(f.subscribed).toEqual([]);
    client.refuse.clear();
    await vi.advanceTimersByTimeAsync(999);
    expect(client.requests).toEqual(['sub A/USDT']);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.requests).toEqual(['sub A/USDT', 'sub A/USDT']);
    expect(f.subscribed).toEqual(['A/USDT']);
  });

  it('requests wait for the venue pacers: 2 per second sends five one-symbol subscribes over three seconds', async () => {
    const client = new FakeDepthClient();
    const sentAt: number[] = [];
    const original = client.subscribe.bind(client);
    client.subscribe = (symbols) => {
      sentAt.push(Date.now() - 10_000);
      return original(symbols);
    };
    const f = feed(client, { perSubscribe: 1, pacers: [new WindowPacer(2, 1000, clock)] });
    f.hold(new Map(['A', 'B', 'C', 'D', 'E'].map((s, i) => [`${s}/USDT`, i])));
    await vi.advanceTimersByTimeAsync(5000);
    expect(sentAt).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('a book silent for RESUBSCRIBE_AFTER_MS is unsubscribed and subscribed again', async () => {
    const client = new FakeDepthClient();
    const f = feed(client);
    f.hold(new Map([['A/USDT', 1]]));
    await vi.advanceTimersByTimeAsync(0);
    client.orderbooks['A/USDT'] = book(100, 101);
    f.poll(() => undefined);
    await vi.advanceTimersByTimeAsync(RESUBSCRIBE_AFTER_MS - 1);
    f.poll(() => undefined);
    expect(client.requests).toEqual(['sub A/USDT']);
    await vi.advanceTimersByTimeAsync(1);
    f.poll(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.requests).toEqual(['sub A/USDT', 'unsub A/USDT', 'sub A/USDT']);
  });
});
