import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGES } from '../../src/market-model/exchanges.js';
import { MARKET_DATA_SOURCE } from '../../src/market-data/market-data.constants.js';
import { MarketDataService } from '../../src/market-data/market-data.service.js';
import type { WorkerMarketDataSource } from '../../src/market-data/ingest/worker-market-data.source.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
// Each cycle re-dials binance's and bitget's two sockets. The service paces dials to the venues'
// limits (300 per 5 minutes on binance and bitget), so the 20 warm-up cycles and these
// stay within 300 dials; more would wait minutes for the pacer, as the real venues require.
const CYCLES = 110;


function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

/** Heap of the ingest workers after a full GC in each: where the ccxt clients live. */
async function workerHeapMb(source: WorkerMarketDataSource): Promise<number> {
  await source.collectGarbage();
  return (await source.collectGarbage()).reduce((n, w) => n + w.heapUsedBytes, 0) / 1e6;
}

/** Every drop/reconnect cycle must release what the previous connection held. */
describe('market data: memory over many reconnects', () => {
  let sim: RunningSimulator;
  let app: TestApp;
  let feeds: MarketDataService;
  let source: WorkerMarketDataSource;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['BTC', 'ETH', 'SOL', 'XRP'] });
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      MARKET_RECONNECT_BASE_MS: '10',
      MARKET_RECONNECT_MAX_MS: '20',
      SAMPLE_INTERVAL_MS: '0',
    });
    feeds = app.app.get(MarketDataService);
    source = app.app.get<WorkerMarketDataSource>(MARKET_DATA_SOURCE);
    await until(allUp, (up) => up, 20_000, 25);
  });

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  const allUp = (): boolean => DEFAULT_EXCHANGES.every((e) => feeds.healthReport()[e]?.connected);
  const reconnects = (): number => DEFAULT_EXCHANGES.reduce((n, e) => n + (feeds.healthReport()[e]?.reconnects ?? 0), 0);
  const quote = (bid: number) =>
    DEFAULT_EXCHANGES.flatMap((exchange) =>
      (['SPOT', 'FUTURES'] as const).map((market) => ({ exchange, market, ticker: 'BTC-USDT', bid, ask: bid + 1 })),
    );

  async function cycle(i: number): Promise<void> {
    const before = reconnects();
    await fetch(`${sim.url}/_sim/drop`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    // Fresh quotes make every new connection deliver data at once instead of at the 2 s re-send.
    const nudge = async () => {
      await fetch(`${sim.url}/_sim/quotes`, { method: 'PUT', body: JSON.stringify(quote(60_000 + i)), headers: { 'content-type': 'application/json' } });
      return { reconnected: reconnects() >= before + 10 && allUp(), health: feeds.healthReport() };
    };
    await until(nudge, (s) => s.reconnected, 10_000, 20).catch(async (err: Error) => {
      const simState = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { exchanges: unknown };
      throw new Error(`cycle ${i}: not reconnected: ${err.message} sim: ${JSON.stringify(simState.exchanges)}`);
    });
  }

  it(`keeps the heap flat over ${CYCLES} drop/reconnect cycles of all ten feeds, in the ingest worker and the serving thread`, async () => {
    for (let i = 0; i < 20; i++) await cycle(i); // warm-up: JIT, caches, pools
    const [start, workerStart] = [heapMb(), await workerHeapMb(source)];
    const t0 = Date.now();
    for (let i = 0; i < CYCLES; i++) await cycle(i);
    const [end, workerEnd] = [heapMb(), await workerHeapMb(source)];
    console.info(
      `reconnect memory: ${CYCLES} cycles in ${Date.now() - t0} ms, serving heap ${start.toFixed(1)} → ${end.toFixed(1)} MB, ` +
        `worker heap ${workerStart.toFixed(1)} → ${workerEnd.toFixed(1)} MB`,
    );
    expect(reconnects()).toBeGreaterThanOrEqual((CYCLES + 20) * 10);
    expect(workerStart).toBeGreaterThan(0);
    expect(end - start).toBeLessThan(10);
    expect(workerEnd - workerStart).toBeLessThan(10);
  }, 240_000);
});
