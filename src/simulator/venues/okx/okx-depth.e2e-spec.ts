import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGE_URLS } from '../../../config/exchange-urls.js';
import { CcxtIngest } from '../../../market-data/ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../../../market-data/ccxt/exchange-clients.js';
import { systemClock } from '../../../market-data/clock.js';
import type { DepthFeeds } from '../../../market-data/depth/depth-feeds.js';
import { createDepthFeeds } from '../../../market-data/depth/worker-depth.js';
import { DEFAULT_BATCH_POLICY } from '../../../market-data/ingest/tick-batch.js';
import type { ConnectionEvent } from '../../../market-data/market-data-source.js';
import { startSimulator, type RunningSimulator } from '../../../simulator/simulator.js';
import { until } from '../../../../test/utils/wait.js';
import { describeDepthContract } from '../../../../test/contract/depth-contract.js';

describeDepthContract('okx', { limit: 20 });

/**
 * An ingest worker's quote feeds and depth feeds on okx, started together against the strict
 * simulator, as the worker wires them (createDepthFeeds on the worker's CcxtIngest): okx accepts
 * 3 new connections a second, and the depth socket counts as one of them.
 */
describe('okx quote and depth feeds of one worker: one budget of new connections', () => {
  let sim: RunningSimulator;
  let ingest: CcxtIngest;
  let depth: DepthFeeds;
  const states: ConnectionEvent[] = [];
  const batches: Float64Array[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH'], walk: false, strict: true });
    const urls = DEFAULT_EXCHANGE_URLS.okx;
    ingest = new CcxtIngest({
      createClient: (e) => createExchangeClient(e, { simulatorUrl: sim.url, urls }),
      clock: systemClock, silenceTimeoutMs: 30_000, backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000,
      sink: { quote: () => undefined }, onState: (event) => states.push(event),
    });
    depth = createDepthFeeds({
      exchanges: ['okx'], simulatorUrl: sim.url, exchangeUrls: DEFAULT_EXCHANGE_URLS, credentials: {}, silenceTimeoutMs: 30_000,
      backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000, batch: DEFAULT_BATCH_POLICY, statsIntervalMs: 1000,
    }, ingest, (batch) => batches.push(batch));
  });

  afterAll(async () => {
    await depth?.close();
    await ingest?.close();
    await sim?.close();
  });

  it('three quote connections and the depth connection dial together: no connections-per-window violation, every feed flows', async () => {
    // Markets first, so that the four dials below are not spread out by the load.
    await ingest.loadedMarkets('okx');
    ingest.watch('okx', 'SPOT', ['BTC-USDT'], [0]);
    ingest.watch('okx', 'SPOT', ['ETH-USDT'], [1]);
    ingest.watch('okx', 'FUTURES', ['BTC-USDT'], [2]);
    depth.hold('okx', 'SPOT', [{ id: 0, ticker: 'BTC-USDT' }]);
    type Report = { total: number; byExchange: Record<string, Record<string, number>> };
    const violations = async (): Promise<Report> => (await (await fetch(`${sim.url}/_sim/violations`)).json()) as Report;
    const connected = (): number => new Set(states.filter((s) => s.state === 'connected').map((s) => s.connectionId)).size;
    // Every feed flowing, or the first violation: a refused dial is retried later and would flow too.
    const seen = await until(
      async () => ({ connected: connected(), books: batches.length, violations: (await violations()).byExchange.okx ?? {} }),
      (s) => Object.keys(s.violations).length > 0 || (s.connected === 3 && s.books > 0),
      10_000, 20,
    );
    expect(seen.violations).toEqual({});
    expect(states.filter((s) => s.state === 'disconnected')).toEqual([]);
  });
});
