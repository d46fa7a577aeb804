import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { createPgDatabase, freePort, serviceProcess, type ServiceProcess, startNginx, waitFor } from '../utils/instances.js';
import { SseTestClient } from '../utils/sse-client.js';
import { testRedisPrefix } from '../utils/test-redis.js';
import { sleep } from '../utils/wait.js';

const LIMITED = { statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' };
const STATS = '/v1/opportunity-history/stats?ticker=ETH-USDT&buy=binance&sell=okx&days=1&threshold=0.5';

/**
 * Scale-out: the deployment of the README's "Running several instances" with real parts:
 * PostgreSQL, Redis, one ingest process and two API processes (each `src/main.ts` in its own
 * Node process), nginx from Debian's package in front of the API ones, round-robin, and the
 * exchange simulator feeding the ingest process through ccxt.
 */
describe('one ingest and two API instances behind nginx', () => {
  const redis = testRedisPrefix();
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let ingest: ServiceProcess;
  let api: [ServiceProcess, ServiceProcess];
  let nginx: { url: string; stop(): void };
  const clients: SseTestClient[] = [];
  let bumps = 0;

  const client = (url: string, headers: Record<string, string> = {}) => {
    const c = new SseTestClient(url, [], headers);
    clients.push(c);
    return c;
  };
  /** One new ETH-USDT opportunity (buy binance, sell okx), so one more event after the 200 ms debounce. */
  const bump = async () => {
    bumps += 1;
    const res = await fetch(`${sim.url}/_sim/quotes`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 2999.99, ask: 3000 },
        { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bid: 3010 + bumps, ask: 3010.01 + bumps },
      ]),
    });
    expect(res.status).toBe(200);
    await sleep(400); // time: past the debounce, so that each bump is an event of its own
  };
  const ids = (c: SseTestClient) => c.events.map((e) => Number(e.id));
  const marketHealth = async (p: ServiceProcess) =>
    ((await (await fetch(`${p.baseUrl}/health/market`)).json()) as { exchanges: Record<string, { connected: boolean }> }).exchanges;
  const allConnected = async (p: ServiceProcess, connected: boolean) => {
    const exchanges = await marketHealth(p);
    return ['binance', 'okx'].every((e) => exchanges[e]?.connected === connected);
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, symbols: ['ETH'], walk: false });
    db = await createPgDatabase();
    const shared = { ...redis.env, DATABASE_URL: db.url, EXCHANGES: 'binance,okx', SYMBOLS: 'ETH-USDT', CROSSING_JOB_ENABLED: '0', TRUST_PROXY: '1' };
    ingest = serviceProcess('ingest', await freePort(), {
      ...shared, ROLE: 'ingest', ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: sim.url, MARKET_RECONNECT_BASE_MS: '100', FUNDING_REFRESH_MS: '1000',
    });
    // The ingest process runs the migrations first; the API ones then find the schema in place.
    await ingest.start();
    const apiEnv = { ...shared, ROLE: 'api', SSE_MAX_PER_IP: '100' };
    api = [serviceProcess('api-1', await freePort(), apiEnv), serviceProcess('api-2', await freePort(), apiEnv)];
    await Promise.all(api.map((p) => p.start()));
    nginx = await startNginx(api.map((p) => p.port));
    for (const p of api) await waitFor(() => allConnected(p, true), 30_000, `${p.name} never saw the feeds connected`);
  }, 180_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    nginx?.stop();
    await Promise.all([...(api ?? []), ingest].map((p) => p?.stop('SIGKILL')));
    await sim?.close();
    await db?.drop();
    await redis.drop();
  });

  it('request 31 within a minute answers 429 whichever instance serves it', async () => {
    for (let i = 0; i < 30; i += 1) {
      const res = await fetch(`${nginx.url}${STATS}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(29 - i));
    }
    // Through nginx (either instance by round-robin), and on each instance as the same client.
    const answers = [
      await fetch(`${nginx.url}${STATS}`),
      await fetch(`${nginx.url}${STATS}`),
      ...(await Promise.all(api.map((p) => fetch(`${p.baseUrl}${STATS}`, { headers: { 'X-Forwarded-For': '127.0.0.1' } })))),
    ];
    for (const res of answers) {
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual(LIMITED);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);

  it('the funding ranking the ingest process collects is served by both instances', async () => {
    const ranking = async (p: ServiceProcess) => {
      const res = await fetch(`${p.baseUrl}/v1/funding-rates`, { headers: { 'X-Forwarded-For': '198.51.100.77' } });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: { symbol: string; exchange: string; fundingRate: number | null }[] };
    };
    await waitFor(async () => (await ranking(api[0])).data.length > 0, 10_000, 'no funding ranking on api-1');
    const fromIngest = (await ranking(ingest)).data.map((e) => [e.exchange, e.symbol, e.fundingRate]);
    expect(fromIngest.length).toBeGreaterThan(0);
    for (const p of api) {
      await waitFor(async () => JSON.stringify((await ranking(p)).data.map((e) => [e.exchange, e.symbol, e.fundingRate])) === JSON.stringify(fromIngest),
        5000, `${p.name} does not serve the ingest process's ranking`);
    }
  }, 60_000);

  it('both instances stream the same opportunities with the same ids', async () => {
    const [one, two] = api.map((p) => client(`${p.baseUrl}/v1/realtime/arbitrage`));
    await Promise.all([one.opened, two.opened]);
    for (let i = 0; i < 3; i += 1) await bump();
    await Promise.all([one.waitFor(3, 10_000), two.waitFor(3, 10_000)]);
    await waitFor(() => ids(one).includes(ids(two).at(-1)!) && ids(two).includes(ids(one).at(-1)!), 5000, 'the instances did not converge');
    // A feed's own event may come between the two connects; from the later first event on, the
    // instances must have sent the same events under the same ids.
    const from = Math.max(ids(one)[0], ids(two)[0]);
    const [a, b] = [one, two].map((c) => c.events.filter((e) => Number(e.id) >= from));
    expect(a.map((e) => e.id)).toEqual(b.map((e) => e.id));
    expect(a.map((e) => e.data)).toEqual(b.map((e) => e.data));
    expect(a.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids(one)).size).toBe(ids(one).length);
    one.close();
    two.close();
  }, 60_000);

  it('a client moved from one instance to the other with Last-Event-ID misses nothing and gets nothing twice', async () => {
    const reference = client(`${api[1].baseUrl}/v1/realtime/arbitrage`);
    const moving = client(`${api[0].baseUrl}/v1/realtime/arbitrage`);
    await Promise.all([reference.opened, moving.opened]);
    await bump();
    await moving.waitFor(1, 10_000);
    moving.close();
    const lastSeen = ids(moving).at(-1)!;
    await bump();
    await bump();
    await reference.waitFor(3, 10_000);
    const moved = client(`${api[1].baseUrl}/v1/realtime/arbitrage`, { 'Last-Event-ID': String(lastSeen) });
    await moved.waitFor(2, 10_000);
    await waitFor(() => ids(moved).at(-1) === ids(reference).at(-1), 5000, 'the moved client did not catch up with the reference');
    // The other instance held the same event under the same id, and replays exactly what followed it.
    expect(ids(reference)).toContain(lastSeen);
    expect(ids(moved)).toEqual(ids(reference).filter((id) => id > lastSeen));
    expect(ids(moved).length).toBeGreaterThanOrEqual(2);
    reference.close();
    moved.close();
  }, 60_000);

  it('killing one API instance: its clients reconnect through nginx and lose no opportunity event', async () => {
    const reference = client(`${api[1].baseUrl}/v1/realtime/arbitrage`);
    const viaProxy = [0, 1, 2, 3].map(() => client(`${nginx.url}/v1/realtime/arbitrage`));
    try {
      await Promise.all([reference, ...viaProxy].map((c) => c.opened));
      await bump();
      await Promise.all([reference, ...viaProxy].map((c) => c.waitFor(1, 10_000)));
      // Round-robin put some of the proxied clients on the instance about to die (its only arbitrage clients).
      const metrics = await (await fetch(`${api[0].baseUrl}/metrics`)).text();
      expect(Number(/^sse_open_streams\{stream="arbitrage"\} (\d+)$/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThanOrEqual(1);
      const beforeKill = ids(reference).at(-1)!;
      await api[0].stop('SIGKILL');
      for (let i = 0; i < 3; i += 1) await bump();
      await reference.waitFor(4, 10_000);
      // EventSource reconnects after 3 s with Last-Event-ID; nginx sends it to the instance still up.
      await waitFor(() => viaProxy.every((c) => ids(c).includes(ids(reference).at(-1)!)), 20_000, 'a client behind nginx did not catch up');
      // An event may come between one client's connect and another's (the simulator re-sends every
      // book each second, and a tick that finds the opportunity makes an event; rules: opportunities), so each client
      // is compared from its first event on: from there, everything the reference saw, in order,
      // nothing twice, the kill and the three bumps after it included.
      for (const c of viaProxy) {
        const [first, last] = [ids(c)[0], ids(c).at(-1)!];
        expect(first).toBeLessThanOrEqual(beforeKill);
        expect(ids(c)).toEqual(ids(reference).filter((id) => id >= first && id <= last));
        expect(ids(c).filter((id) => id > beforeKill).length).toBeGreaterThanOrEqual(3);
      }
    } finally {
      viaProxy.forEach((c) => c.close());
      reference.close();
      // The next test needs both instances, whatever happened here.
      if (!api[0].running) await api[0].start();
    }
  }, 120_000);

  it('stopping the ingest process shows on /health/market of both instances; its restart resumes the streams', async () => {
    const streams = api.map((p) => client(`${p.baseUrl}/v1/realtime/arbitrage`));
    await ingest.stop('SIGTERM');
    for (const p of api) await waitFor(() => allConnected(p, false), 10_000, `${p.name} still reports the feeds up`);
    const beforeRestart = Math.max(0, ...streams.flatMap((c) => ids(c)));
    await ingest.start();
    for (const p of api) await waitFor(() => allConnected(p, true), 30_000, `${p.name} never saw the feeds back`);
    await bump();
    await waitFor(() => streams.every((c) => ids(c).some((id) => id > beforeRestart)), 10_000, 'a stream saw no event after the restart');
    // The two streams opened one after the other, and an event may come in between or arrive on
    // one before the other (as in the test above): they are compared over the span both were open
    // and both received.
    const from = Math.max(...streams.map((c) => ids(c)[0]));
    const to = Math.min(...streams.map((c) => ids(c).at(-1)!));
    const span = (c: SseTestClient) => ids(c).filter((id) => id >= from && id <= to);
    expect(span(streams[0]).some((id) => id > beforeRestart)).toBe(true);
    expect(span(streams[0])).toEqual(span(streams[1]));
  }, 120_000);
});
