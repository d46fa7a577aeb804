import http from 'node:http';
import net from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { rawGet, stalledClient } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { sleep, until as untilShared } from '../utils/wait.js';

const CAP = 5;

/** One plain request; resolves its status. */
function call(baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(`${baseUrl}/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** Opens a stream and drops it as soon as its head arrives (or the refusal is read). */
function openAndDrop(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

/** A slowloris client: starts a request head and sends one more header line every 200 ms, never the end. */
function slowloris(baseUrl: string): Promise<{ closedAfterMs: number; received: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write('GET /v1/realtime/prices HTTP/1.1\r\nHost: x\r\n'));
    const drip = setInterval(() => socket.writable && socket.write('X-Drip: 1\r\n'), 200);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
  });
}

/** Resolves once `condition` holds (the shared until, polling every 20 ms). */
const until = (condition: () => boolean, timeoutMs = 5000): Promise<boolean> => untilShared(condition, (ok) => ok, timeoutMs, 20);

/**
 * One client IP against the per-IP stream cap (rules: rate-limits), with every
 * stream of the app counted together, refusals in the `errors` rule shape before the stream opens, and
 * 1,000 streams opened and dropped in a loop leaving no connection, timer or per-IP entry behind,
 * and clients that never finish their request head cut off after HTTP_HEADERS_TIMEOUT_MS.
 */
describe(`stream abuse from one IP: cap ${CAP} (SSE_MAX_PER_IP), churn, slowloris`, () => {
  let t: TestApp;
  let hub: SseHub;
  const url = (path: string) => `${t.baseUrl}${path}`;

  beforeAll(async () => {
    t = await startTestApp({
      SSE_MAX_PER_IP: String(CAP),
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      CROSSING_JOB_ENABLED: '0',
    });
    hub = t.app.get(SseHub);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the cap counts every stream of the IP together; one more is a 429 before the stream opens', async () => {
    const held = await Promise.all(
      ['/v1/realtime/prices', '/v1/realtime/arbitrage', '/v1/realtime/prices', '/v1/realtime/arbitrage', '/v1/realtime/prices'].map((p) => stalledClient(url(p))),
    );
    await until(() => hub.stats().connections === CAP);
    for (const path of ['/v1/realtime/prices', '/v1/realtime/arbitrage']) {
      const refused = await rawGet(url(path), 300);
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(refused.body)).toEqual({ statusCode: 429, message: 'too many open streams', error: 'Too Many Requests' });
    }
    expect(hub.stats().connections).toBe(CAP);
    held.forEach((h) => h.destroy());
    await until(() => hub.stats().connections === 0);
    expect((await rawGet(url('/v1/realtime/prices'), 200)).status).toBe(200);
  });

  it('1,000 streams opened and dropped in a loop: never more than the cap at once, nothing left behind, the cap still holds', async () => {
    const statuses = new Map<number, number>();
    let most = 0;
    for (let round = 0; round < 100; round++) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, i) => openAndDrop(url(i % 2 ? '/v1/realtime/prices' : '/v1/realtime/arbitrage'))));
      for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      most = Math.max(most, hub.stats().connections);
    }
    expect([...statuses.keys()].every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(CAP);
    await until(() => hub.stats().connections === 0);
    expect(hub.stats()).toEqual({ connections: 0, ips: 0, sweepTimer: false });

    const again = await Promise.all(Array.from({ length: CAP + 1 }, () => stalledClient(url('/v1/realtime/prices'))));
    await until(() => hub.stats().connections === CAP);
    again.forEach((c) => c.destroy());
    await until(() => hub.stats().connections === 0);
  }, 60_000);

  it('a 64 KiB header is answered 431 and closed, 20 at once; streams and requests of others go on', async () => {
    const healthy = await stalledClient(url('/v1/realtime/prices'));
    const huge = (): Promise<string> => {
      const { hostname, port } = new URL(t.baseUrl);
      return new Promise((resolve) => {
        let received = '';
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(`GET /v1/realtime/prices HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`));
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(received));
      });
    };
    const answers = await Promise.all(Array.from({ length: 20 }, huge));
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 431 /);
    expect(await call(t.baseUrl)).toBe(200);
    expect(hub.stats().connections).toBe(1);
    healthy.destroy();
    await until(() => hub.stats().connections === 0);
  });

  it('memory returns to its baseline after the abuse: heap after GC within 2 MB of before after 300 streams', async () => {
    const heapAfterGc = (): number => {
      const gc = runInNewContext('gc') as () => void;
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    setFlagsFromString('--expose-gc');
    const before = heapAfterGc();
    for (let round = 0; round < 30; round++) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => openAndDrop(url(i % 2 ? '/v1/realtime/prices' : '/v1/realtime/arbitrage'))));
    }
    const held = await Promise.all(Array.from({ length: CAP }, () => stalledClient(url('/v1/realtime/prices'))));
    await sleep(500); // time: the held streams get ticks they cannot read (stalled clients give no signal)
    held.forEach((h) => h.destroy());
    await until(() => hub.stats().connections === 0);
    await sleep(200); // time: closed sockets' buffers are released on a later turn before the heap is read
    expect(heapAfterGc() - before).toBeLessThan(2 * 1024 * 1024);
  }, 60_000);

  it('50 slowloris clients (a header line every 200 ms, never the end) are answered 408 and closed after HTTP_HEADERS_TIMEOUT_MS; others are served meanwhile', async () => {
    const clients = Array.from({ length: 50 }, () => slowloris(t.baseUrl));
    await sleep(300); // time: the slowloris clients have sent their first header lines
    const started = Date.now();
    const health = await call(t.baseUrl);
    expect(health).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    const closed = await Promise.all(clients);
    for (const c of closed) {
      expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
      // 1 s timeout, checked every 250 ms; never Node's default 60 s.
      expect(c.closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(c.closedAfterMs).toBeLessThan(3000);
    }
    expect(hub.stats().connections).toBe(0);
  }, 20_000);
});
