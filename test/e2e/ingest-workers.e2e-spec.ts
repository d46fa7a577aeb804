import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGES, type ExchangeName } from '../../src/market-model/exchanges.js';
import type { WorkerMarketDataSource } from '../../src/market-data/ingest/worker-market-data.source.js';
import { MARKET_DATA_SOURCE } from '../../src/market-data/market-data.constants.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { sleep, until as untilEvery } from '../utils/wait.js';

interface ExchangeHealth {
  connected: boolean;
  reconnects: number;
}

/** Polls every 10 ms. */
const until = <T>(read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs: number): Promise<T> => untilEvery(read, ok, timeoutMs, 10);

/**
 * The exchanges run in ingest worker threads. Two workers here (the default on this
 * machine is one per spare core): a worker that dies takes its exchanges' feeds down with it,
 * /health/market says so, and the restarted worker brings them back while the other worker's
 * exchanges never notice.
 */
describe('ingest workers', () => {
  let sim: RunningSimulator;
  let app: TestApp;
  let source: WorkerMarketDataSource;
  let book: QuoteBook;

  const health = async (): Promise<Record<string, ExchangeHealth>> =>
    ((await (await fetch(`${app.baseUrl}/health/market`)).json()) as { exchanges: Record<string, ExchangeHealth> }).exchanges;
  const putQuote = async (exchange: ExchangeName, bid: number): Promise<void> => {
    const body = JSON.stringify([{ exchange, market: 'SPOT', ticker: 'BTC-USDT', bid, ask: bid + 1 }]);
    const res = await fetch(`${sim.url}/_sim/quotes`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
  };
  const seesQuote = (exchange: ExchangeName, bid: number) => (): Promise<number | undefined> =>
    Promise.resolve(book.get(exchange, 'SPOT', 'BTC-USDT')?.bid).then((b) => (b === bid ? b : undefined));

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['BTC', 'ETH'] });
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      MARKET_RECONNECT_BASE_MS: '50',
      MARKET_RECONNECT_MAX_MS: '400',
      SAMPLE_INTERVAL_MS: '0',
      INGEST_WORKERS: '2',
    });
    source = app.app.get<WorkerMarketDataSource>(MARKET_DATA_SOURCE);
    book = app.app.get(QuoteBook);
    await until(health, (h) => DEFAULT_EXCHANGES.every((e) => h[e]?.connected), 20_000);
  });

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  it('spreads the five exchanges over the configured workers, each exchange on exactly one', () => {
    const owned = source.ingestWorkers.map((w) => [...w.exchanges]);
    expect(owned).toHaveLength(2);
    expect(owned.flat().sort()).toEqual([...DEFAULT_EXCHANGES].sort());
    expect(source.ingestWorkers.every((w) => w.thread !== null)).toBe(true);
    // Heap limits as configured: INGEST_WORKER_HEAP_MB (default 224) and the 48 MB young generation.
    expect(source.ingestWorkers[0]?.thread?.resourceLimits).toMatchObject({ maxOldGenerationSizeMb: 224, maxYoungGenerationSizeMb: 48 });
  });

  it('carries quotes from every worker to the quote book, counting what the workers received', async () => {
    for (const [i, exchange] of DEFAULT_EXCHANGES.entries()) await putQuote(exchange, 50_000 + i);
    for (const [i, exchange] of DEFAULT_EXCHANGES.entries()) await until(seesQuote(exchange, 50_000 + i), (b) => b !== undefined, 5_000);
    // The counters are the workers' periodic snapshots: one taken between a quote's arrival and
    // its batch's flush shows it received before any batch, so wait for a snapshot with both.
    const counts = await until(
      () => source.ingestCounters(),
      (c) => DEFAULT_EXCHANGES.every((e) => c.received[e] > 0) && c.workers.length === 2 && c.workers.every((w) => w.up && w.batches > 0),
      5_000,
    );
    expect(counts.workers).toHaveLength(2);
    expect(counts.workers.every((w) => w.up && w.batches > 0)).toBe(true);
  });

  it('exposes ingest counters, per-stage tick latency and both threads\' event-loop delay on /metrics', async () => {
    // binance perpetual bookTicker messages carry the exchange's timestamps (E, T).
    const body = JSON.stringify([{ exchange: 'binance', market: 'FUTURES', ticker: 'BTC-USDT', bid: 70_000, ask: 70_001 }]);
    await fetch(`${sim.url}/_sim/quotes`, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    await until(() => book.get('binance', 'FUTURES', 'BTC-USDT')?.bid, (b) => b === 70_000, 5_000);
    // A scrape between two equal readings of the workers' counters (they reach this thread once a
    // second), so the conflation counter must show exactly what the workers counted.
    const conflated = (): number => source.ingestCounters().conflated.binance;
    const scrape = async () => {
      const before = conflated();
      const body = await (await fetch(`${app.baseUrl}/metrics`)).text();
      return { before, body, after: conflated() };
    };
    const { body: text, before: conflatedNow } = await until(scrape, (s) => s.before === s.after, 5_000);
    const value = (line: string): number => Number(new RegExp(`^${line.replace(/[{}+.]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    for (const e of DEFAULT_EXCHANGES) expect(value(`market_ingest_received_total{exchange="${e}"}`)).toBeGreaterThan(0);
    expect(value('market_ingest_conflated_total{exchange="binance"}')).toBe(conflatedNow);
    expect(value('market_tick_latency_seconds_count{stage="worker_to_book",exchange="binance"}')).toBeGreaterThan(0);
    expect(value('market_tick_latency_seconds_count{stage="exchange_to_book",exchange="binance"}')).toBeGreaterThan(0);
    expect(value('market_tick_latency_seconds_bucket{stage="worker_to_book",exchange="binance",le="+Inf"}')).toBe(
      value('market_tick_latency_seconds_count{stage="worker_to_book",exchange="binance"}'),
    );
    expect(text).toMatch(/^market_ingest_worker_event_loop_delay_p99_seconds\{worker="[a-z,]+"\} \S+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
  });

  it('takes the simulator\'s load mode: everything it sends arrives through the real ccxt clients', async () => {
    const sent = async (): Promise<number> => ((await (await fetch(`${sim.url}/_sim/load`)).json()) as { sent: number }).sent;
    const received = (): number => DEFAULT_EXCHANGES.reduce((n, e) => n + source.ingestCounters().received[e], 0);
    const [sent0, received0] = [await sent(), received()];
    const post = (rate: number) =>
      fetch(`${sim.url}/_sim/load`, { method: 'POST', body: JSON.stringify({ rate }), headers: { 'content-type': 'application/json' } });
    expect((await post(2_000)).status).toBe(200);
    // 1,500 messages at 2,000 a second: the load mode runs at about its rate (3 s allows a busy machine).
    await until(sent, (n) => n - sent0 >= 1_500, 3_000);
    expect((await post(0)).status).toBe(200);
    const loadSent = (await sent()) - sent0;
    expect(loadSent).toBeGreaterThanOrEqual(1_500);
    // Stats reach the serving thread once a second; the 1 s re-sends only add to what arrives.
    await until(received, (n) => n - received0 >= loadSent, 5_000);
  });

  it('restarts a worker that dies: its exchanges show disconnected, then recover; the others stay up', async () => {
    const victim = source.ingestWorkers.find((w) => w.exchanges.includes('binance'));
    const other = source.ingestWorkers.find((w) => w !== victim);
    if (!victim?.thread || !other) throw new Error('expected two running workers');
    const downExchanges = [...victim.exchanges];
    const upExchanges = [...other.exchanges];
    const before = await health();

    await victim.thread.terminate();
    const during = await until(health, (h) => downExchanges.every((e) => h[e]?.connected === false), 2_000);
    expect(upExchanges.every((e) => during[e]?.connected)).toBe(true);

    const after = await until(health, (h) => DEFAULT_EXCHANGES.every((e) => h[e]?.connected), 15_000);
    expect(victim.restarts).toBe(1);
    for (const e of downExchanges) expect(after[e]?.reconnects).toBeGreaterThan(before[e]?.reconnects ?? 0);
    for (const e of upExchanges) expect(after[e]?.reconnects).toBe(before[e]?.reconnects);

    // The restarted worker carries fresh quotes again.
    await putQuote('binance', 61_000);
    await until(seesQuote('binance', 61_000), (b) => b !== undefined, 5_000);
    // REST calls reach the new worker too.
    expect((await source.listMarkets('binance')).length).toBeGreaterThan(0);
  });
});

describe('ingest workers with the feeds off', () => {
  it('starts no worker (so ccxt is never loaded) when neither ENABLED_WEBSOCKET nor a simulator is set', async () => {
    const app = await startTestApp({ ENABLED_WEBSOCKET: '0' });
    try {
      await sleep(300); // time: past start-up, where the jobs would make their first calls: none may start a worker
      const source = app.app.get<WorkerMarketDataSource>(MARKET_DATA_SOURCE);
      expect(source.ingestWorkers.length).toBeGreaterThan(0);
      expect(source.ingestWorkers.every((w) => w.thread === null)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
