import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { createPgDatabase, freePort, serviceProcess, type ServiceProcess, waitFor } from '../utils/instances.js';
import { SseTestClient } from '../utils/sse-client.js';
import { testRedisPrefix } from '../utils/test-redis.js';
import { until } from '../utils/wait.js';

interface Delivery { status: string; attempts: number; route: string }

/**
 * Alerts in a split deployment: one ingest and two API processes on one PostgreSQL and Redis. A
 * rule created through one API instance is evaluated by the ingest process alone: one firing, one
 * delivery, however many instances run, while the route keeps producing events.
 */
describe('alerts with ROLE=ingest and two ROLE=api instances', () => {
  const redis = testRedisPrefix();
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let ingest: ServiceProcess;
  let api: ServiceProcess[] = [];
  let hook: Receiver;
  let stream: SseTestClient | null = null;

  beforeAll(async () => {
    hook = await startReceiver();
    sim = await startSimulator({ port: 0, symbols: ['ETH'], walk: false });
    db = await createPgDatabase();
    const shared = {
      ...redis.env, DATABASE_URL: db.url, EXCHANGES: 'binance,okx', SYMBOLS: 'ETH-USDT', CROSSING_JOB_ENABLED: '0',
      ALERT_SEND_INTERVAL_MS: '100', ALERT_RETRY_BASE_MS: '100', ALERT_TARGETS_ALLOW_PRIVATE: '1',
    };
    ingest = serviceProcess('ingest', await freePort(), {
      ...shared, ROLE: 'ingest', ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: sim.url, FUNDING_REFRESH_MS: '0', INGEST_WORKERS: '1',
    });
    await ingest.start();
    api = [serviceProcess('api-1', await freePort(), { ...shared, ROLE: 'api' }), serviceProcess('api-2', await freePort(), { ...shared, ROLE: 'api' })];
    await Promise.all(api.map((p) => p.start()));
  }, 180_000);

  afterAll(async () => {
    stream?.close();
    await Promise.all([...api, ingest].map((p) => p?.stop('SIGKILL')));
    await sim?.close();
    await hook?.close();
    await db?.drop();
    await redis.drop();
  });

  it('a rule created on one API instance notifies exactly once', async () => {
    const res = await fetch(`${api[0].baseUrl}/v1/alerts/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'split@example.com', name: 'eth', kind: 'opportunity', condition: { tickers: ['ETH-USDT'] }, channel: { type: 'webhook', url: hook.url } }),
    });
    expect(res.status).toBe(201);
    await waitFor(async () => {
      const health = (await (await fetch(`${api[1].baseUrl}/health/market`)).json()) as { exchanges: Record<string, { connected: boolean }> };
      return health.exchanges.binance?.connected === true && health.exchanges.okx?.connected === true;
    }, 30_000, 'feeds never connected');
    stream = new SseTestClient(`${api[1].baseUrl}/v1/realtime/arbitrage?tickers=ETH-USDT`);
    await fetch(`${sim.url}/_sim/quotes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 2999.99, ask: 3000 },
        { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bid: 3030, ask: 3030.01 },
      ]),
    });
    await until(() => hook.accepted().length, (n) => n >= 1, 20_000);
    // The route stays open: the simulator re-sends its quotes, the detector publishes again, and
    // every instance sees those events. Three more events, and still one notification.
    const seen = stream.events.length;
    await stream.waitFor(seen + 3, 20_000);
    const deliveries = await until(
      async () => (await (await fetch(`${api[1].baseUrl}/v1/alerts/deliveries?email=split@example.com`)).json()) as Delivery[],
      (d) => d[0]?.status === 'delivered', 5_000,
    );
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1, route: 'ETH-USDT binance->okx' })]);
    expect(hook.received).toHaveLength(1);
  }, 90_000);
});
