import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { startServiceProcess, type ServiceProcess } from '../utils/service-process.js';
import { until } from '../utils/wait.js';
import { faultDatabase, type FaultDatabase } from './fault-database.js';

const SECRET = 'whsec_sigkill_secret_Zz81';
const BOT_TOKEN = '555666777:AAG-sigkill-bot-token-abcdefghQw12';
const EMAIL = 'kill@example.com';

interface Delivery { id: string; status: string; attempts: number; lastError: string | null; channel: string }

/**
 * The outbox survives a crash: a firing recorded and not yet delivered (its receiver refused the
 * first attempt) is delivered exactly once by the next process on the same database, with the same
 * Idempotency-Key, and the route does not fire again (its cool-down memory is in the database too).
 * Every line both processes logged is searched for the channels' secrets.
 */
describe('alerts: SIGKILL between firing and delivery', () => {
  let db: FaultDatabase;
  let sim: RunningSimulator;
  let hook: Receiver;
  let telegram: Receiver;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await faultDatabase();
    sim = await startSimulator({ port: 0, symbols: ['BTC'], walk: false });
    hook = await startReceiver([{ status: 503, headers: { 'Retry-After': '2' } }]);
    telegram = await startReceiver([{ status: 401, body: JSON.stringify({ ok: false, error_code: 401, description: 'Unauthorized' }) }]);
  });
  afterAll(async () => {
    for (const s of services) s.signal('SIGKILL');
    await Promise.all(services.map((s) => s.exited));
    await sim?.close();
    await hook?.close();
    await telegram?.close();
    await db?.drop();
  });

  const start = async (): Promise<ServiceProcess> => {
    const service = await startServiceProcess({
      ...db.env,
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      EXCHANGES: 'binance,okx',
      SYMBOLS: 'BTC-USDT',
      TELEGRAM_API_URL: telegram.url,
      // Receivers on 127.0.0.1 over http (rules: outbound-targets).
      ALERT_TARGETS_ALLOW_PRIVATE: '1',
      ALERT_SEND_INTERVAL_MS: '100',
      ALERT_RETRY_BASE_MS: '100',
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      INGEST_WORKERS: '1',
    });
    services.push(service);
    return service;
  };
  const deliveries = async (base: string): Promise<Delivery[]> =>
    (await (await fetch(`${base}/v1/alerts/deliveries?email=${EMAIL}`)).json()) as Delivery[];

  it('delivers once after the restart, with the first attempt\'s key, and no secret in any log line', async () => {
    const first = await start();
    const post = (channel: object) => fetch(`${first.baseUrl}/v1/alerts/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, name: 'kill', kind: 'opportunity', condition: { minProfit: 0.5 }, channel }),
    });
    expect((await post({ type: 'webhook', url: hook.url, secret: SECRET })).status).toBe(201);
    expect((await post({ type: 'telegram', botToken: BOT_TOKEN, chatId: '42' })).status).toBe(201);
    await until(async () => (await (await fetch(`${first.baseUrl}/health/market`)).json()) as { exchanges: Record<string, { connected: boolean }> },
      (h) => h.exchanges.binance?.connected === true && h.exchanges.okx?.connected === true, 30_000);
    await fetch(`${sim.url}/_sim/quotes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 99.99, ask: 100 },
        { exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 101, ask: 101.01 },
      ]),
    });

    // Fired and recorded; the first attempt refused (503, retry in 2 s); the telegram channel refused too.
    await until(() => hook.received.length, (n) => n === 1, 20_000);
    await until(() => telegram.received.length, (n) => n >= 1, 20_000);
    const key = hook.received[0].headers['idempotency-key'];
    // The refused attempt is on record before the kill (the hook answering is not yet the sender recording it).
    await until(() => deliveries(first.baseUrl), (d) => d.some((x) => x.channel === 'webhook' && x.attempts === 1 && x.lastError !== null), 20_000);
    first.signal('SIGKILL');
    await first.exited;
    hook.answers.splice(0, hook.answers.length, { status: 200 });

    const second = await start();
    const delivered = await until(() => deliveries(second.baseUrl), (d) => d.some((x) => x.channel === 'webhook' && x.status === 'delivered'), 30_000);
    expect(hook.accepted()).toHaveLength(1);
    expect(hook.accepted()[0].headers['idempotency-key']).toBe(key);
    // One notification per rule: the route reopened in the new process but is inside its cool-down.
    expect(delivered.filter((d) => d.channel === 'webhook')).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
    const tg = delivered.filter((d) => d.channel === 'telegram');
    expect(tg).toEqual([expect.objectContaining({ status: 'pending', lastError: 'HTTP 401' })]);

    const logs = [first.output(), second.output()].join('\n');
    expect(logs).toContain('alert delivery failed, will retry');
    for (const secret of [SECRET, BOT_TOKEN, 'sigkill-bot-token']) expect(logs).not.toContain(secret);
  }, 180_000);
});
