import { EventEmitter } from 'node:events';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { until } from '../../test/utils/wait.js';
import type { AppConfig } from '../config/app-config.js';
import type { FeedHealthMirror } from '../market-data/feed-health-mirror.js';
import { packTicks } from '../market-data/ingest/tick-batch.js';
import type { MarketDataSource } from '../market-data/market-data-source.js';
import type { MarketDataService } from '../market-data/market-data.service.js';
import { MarketTable } from '../market-data/market-table.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import type { IngestLease } from '../redis/ingest-lease.js';
import { MarketRelay } from './market-relay.js';
import type { RedisLink } from '../redis/redis-link.js';
import { decodeBatch, encodeBatch } from './tick-codec.js';

const EPOCH = 1_700_000_000_000;
const entry = { bidQty: 1, askQty: 2, exchangeTime: null, receivedAt: EPOCH };

/** The Redis commands the relay uses, recorded in call order; `hashes` answers HGETALL. */
function fakeRedis() {
  const calls: [string, ...unknown[]][] = [];
  const hashes = new Map<string, Record<string, string>>();
  const subscriber = Object.assign(new EventEmitter(), { subscribe: () => Promise.resolve(1), quit: () => Promise.resolve('OK') });
  const commands = {
    hset: (key: string, fields: Record<string, string>) => (calls.push(['hset', key, fields]), Promise.resolve(1)),
    publish: (channel: string, message: Buffer) => (calls.push(['publish', channel, message]), Promise.resolve(1)),
    hgetall: (key: string) => Promise.resolve(hashes.get(key) ?? {}),
    get: () => Promise.resolve(null),
  };
  const link = { key: (name: string) => `p:${name}`, commands, dedicated: () => subscriber, state: { up: true } };
  return { calls, hashes, subscriber, link: link as unknown as RedisLink };
}

function relay(role: 'ingest' | 'api') {
  const redis = fakeRedis();
  const batches = new Subject<Float64Array>();
  const table = new MarketTable();
  const clock = { t: EPOCH, now: () => clock.t };
  const book = new QuoteBook(new InProcessQuoteTickBus(), clock, table);
  const source = { batches, marketTable: table } as unknown as MarketDataSource;
  const lease = { run: (start: () => void) => Promise.resolve(start()) } as unknown as IngestLease;
  const config = { scaleOut: { role } } as unknown as AppConfig;
  const marketData = { healthReport: () => ({}) } as unknown as MarketDataService;
  const mirror = { set: () => undefined } as unknown as FeedHealthMirror;
  const r = new MarketRelay(config, redis.link, lease, source, clock, book, table, marketData, mirror);
  return { r, redis, batches, table, book, clock };
}

const btc = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' } as const;
const eth = { exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT' } as const;

describe('MarketRelay', () => {
  it('ingest side: publishes each worker batch unchanged, one message per batch, after storing the table entries it needs', async () => {
    const { r, redis, batches, table } = relay('ingest');
    await r.onApplicationBootstrap();
    const [iBtc, iEth] = [table.indexOf(btc), table.indexOf(eth)];
    const first = packTicks([{ ...entry, index: iEth, bid: 50, ask: 51 }, { ...entry, index: iBtc, bid: 100, ask: 101 }]);
    const second = packTicks([{ ...entry, index: iEth, bid: 52, ask: 53 }]);
    batches.next(first);
    batches.next(second);
    const sol = table.indexOf({ exchange: 'gate', market: 'SPOT', ticker: 'SOL-USDT' });
    const third = packTicks([{ ...entry, index: sol, bid: 9, ask: 10 }]);
    batches.next(third);
    await r.onApplicationShutdown();

    expect(redis.calls.map(([command]) => command)).toEqual(['hset', 'publish', 'publish', 'hset', 'publish']);
    expect(redis.calls[0]).toEqual(['hset', `p:markets:${EPOCH}`, { 0: 'binance|SPOT|BTC-USDT', 1: 'okx|FUTURES|ETH-USDT' }]);
    expect(redis.calls[3]).toEqual(['hset', `p:markets:${EPOCH}`, { 2: 'gate|SPOT|SOL-USDT' }]);
    const published = redis.calls.filter(([command]) => command === 'publish').map(([, channel, message]) => [channel, decodeBatch(message as Buffer)]);
    expect(published).toEqual([
      ['p:ticks', { epoch: EPOCH, batch: first }],
      ['p:ticks', { epoch: EPOCH, batch: second }],
      ['p:ticks', { epoch: EPOCH, batch: third }],
    ]);
  });

  it('API side: applies batches to the book through a table read from Redis, and reads it afresh for a new ingest epoch', async () => {
    const { r, redis, table, book, clock } = relay('api');
    await r.onApplicationBootstrap();
    redis.hashes.set(`p:markets:${EPOCH}`, { 0: 'okx|FUTURES|ETH-USDT', 1: 'binance|SPOT|BTC-USDT' });
    const message = encodeBatch(EPOCH, packTicks([{ ...entry, index: 1, bid: 100, ask: 101 }, { ...entry, index: 0, bid: 50, ask: 51 }]));
    const deliver = (m: Buffer) => redis.subscriber.emit('messageBuffer', Buffer.from('p:ticks'), m);

    deliver(message);
    expect(book.size).toBe(0);
    await until(() => table.size, (n) => n === 2, 2_000, 1);
    deliver(message);
    expect(book.get('binance', 'SPOT', 'BTC-USDT')).toEqual({ ...btc, ...entry, bid: 100, ask: 101 });
    expect(book.get('okx', 'FUTURES', 'ETH-USDT')).toEqual({ ...eth, ...entry, bid: 50, ask: 51 });

    // A restarted ingest process numbers its markets afresh: index 0 is now bitget's.
    const next = EPOCH + 60_000;
    redis.hashes.set(`p:markets:${next}`, { 0: 'bitget|SPOT|BTC-USDT' });
    clock.t += 1_000;
    const fresh = encodeBatch(next, packTicks([{ ...entry, index: 0, bid: 7, ask: 8 }]));
    deliver(fresh);
    expect(table.at(1)).toBeUndefined();
    await until(() => table.size, (n) => n === 1, 2_000, 1);
    deliver(fresh);
    expect(book.get('bitget', 'SPOT', 'BTC-USDT')?.bid).toBe(7);
    expect(book.get('okx', 'FUTURES', 'ETH-USDT')?.bid).toBe(50);
    await r.onApplicationShutdown();
  });
});
