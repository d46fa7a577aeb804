import { RedisLink } from '../../src/redis/redis-link.js';
import { SseSlots } from '../../src/redis/sse-slots.js';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { Observable, Subject, interval, map, share } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors/app-error.js';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { type SseFrame, dataFrame } from '../../src/common/sse/sse-frame.js';
import type { DeliveryPolicy } from '../../src/common/sse/sse-connection.js';
import { loadConfig } from '../../src/config/validate-env.js';
import { MetricsService } from '../../src/common/metrics/metrics.service.js';
import { SseTestClient, rawGet, stalledClient } from '../utils/sse-client.js';
import { until } from '../utils/wait.js';

/**
 * The SSE transport (rules: streams) on a real HTTP server with real clients: headers, framing, heartbeat,
 * the per-IP cap, slow clients, and cleanup.
 */
describe('SSE transport', () => {
  let server: http.Server;
  let hub: SseHub;
  let base: string;
  let source: Observable<SseFrame>;
  let policy: DeliveryPolicy;

  /** Resolves once the hub holds `n` open streams. */
  const connections = (n: number, timeoutMs = 3000) => until(() => hub.stats().connections, (c) => c === n, timeoutMs, 10);

  const start = async (env: Record<string, string> = {}) => {
    const config = loadConfig({ SSE_HEARTBEAT_MS: '300', SSE_STALL_TIMEOUT_MS: '600', SSE_MAX_PER_IP: '3', ...env });
    hub = new SseHub(config, new MetricsService(), new SseSlots(config, new RedisLink(config)));
    const app = express();
    app.get('/stream', (req, res) => {
      try {
        void hub.open(req, res, source, { stream: 'test', policy });
      } catch (err) {
        res.status(429).json({ message: (err as AppError).message });
      }
    });
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeEach(() => {
    policy = 'latest';
  });
  afterEach(async () => {
    hub.beforeApplicationShutdown();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('answers with exactly the API contract section 6 headers and `data: <JSON>` frames', async () => {
    const ticks = new Subject<SseFrame>();
    source = ticks;
    await start();
    const pending = rawGet(`${base}/stream`, 200);
    await connections(1);
    ticks.next(dataFrame({ a: 1 }));
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['connection']).toBe('keep-alive');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.body).toBe('data: {"a":1}\n\n');
  });

  it('writes the same frame to every client, with ids and event names when given', async () => {
    const ticks = new Subject<SseFrame>();
    source = ticks;
    await start();
    const a = new SseTestClient(`${base}/stream`, ['custom']);
    const b = new SseTestClient(`${base}/stream`, ['custom']);
    await connections(2);
    ticks.next(dataFrame({ n: 1 }, { id: 7 }));
    ticks.next(dataFrame({ n: 2 }, { event: 'custom' }));
    await Promise.all([a.waitFor(2), b.waitFor(2)]);
    for (const c of [a, b]) {
      expect(c.events.map((e) => [e.type, e.data])).toEqual([
        ['message', '{"n":1}'],
        ['custom', '{"n":2}'],
      ]);
      expect(c.events[0]?.id).toBe('7');
      c.close();
    }
  });

  it('sends `: ping` after the heartbeat period of silence', async () => {
    source = new Subject<SseFrame>();
    await start();
    const res = await rawGet(`${base}/stream`, 800);
    expect(res.body).toContain(': ping\n\n');
  });

  it('refuses one stream more than SSE_MAX_PER_IP with 429 before opening', async () => {
    source = new Subject<SseFrame>();
    await start();
    const open = [1, 2, 3].map(() => new SseTestClient(`${base}/stream`));
    await connections(3);
    const extra = await rawGet(`${base}/stream`, 300);
    expect(extra.status).toBe(429);
    expect(JSON.parse(extra.body)).toEqual({ message: 'too many open streams' });
    open.forEach((c) => c.close());
    await connections(0);
    const again = await rawGet(`${base}/stream`, 100);
    expect(again.status).toBe(200);
  });

  it('a client that never reads skips ticks, does not slow another client, and is cut off', async () => {
    const big = dataFrame({ pad: 'x'.repeat(256 * 1024) });
    source = interval(20).pipe(map(() => big), share());
    await start({ SSE_STALL_TIMEOUT_MS: '800' });
    const stalled = await stalledClient(`${base}/stream`);
    const healthy = new SseTestClient(`${base}/stream`);
    const startedAt = Date.now();
    await healthy.waitFor(20, 5000);
    const elapsed = Date.now() - startedAt;
    // 20 ticks at 20 ms: a healthy client keeps the cadence while the other one is stuck.
    expect(elapsed).toBeLessThan(2000);
    await connections(1, 4000);
    healthy.close();
    stalled.destroy();
  });

  it('reliable streams cut off a client more than SSE_MAX_BUFFER_BYTES behind', async () => {
    policy = 'reliable';
    const big = dataFrame({ pad: 'y'.repeat(128 * 1024) });
    source = interval(10).pipe(map(() => big), share());
    await start({ SSE_MAX_BUFFER_BYTES: '1048576', SSE_STALL_TIMEOUT_MS: '60000' });
    const stalled = await stalledClient(`${base}/stream`);
    await connections(1);
    await connections(0, 5000);
    stalled.destroy();
  });

  it('releases every subscription, listener and timer after 300 streams open and close', async () => {
    let subscribers = 0;
    const ticks = new Subject<SseFrame>();
    source = new Observable<SseFrame>((subscriber) => {
      subscribers += 1;
      const s = ticks.subscribe(subscriber);
      return () => {
        subscribers -= 1;
        s.unsubscribe();
      };
    });
    await start({ SSE_MAX_PER_IP: '1000' });
    for (let round = 0; round < 3; round += 1) {
      // Each client holds its stream until all 100 are open, however slow the machine.
      const clients = await Promise.all(Array.from({ length: 100 }, () => stalledClient(`${base}/stream`)));
      await connections(100, 15_000);
      expect(subscribers).toBe(100);
      clients.forEach((c) => c.destroy());
      await connections(0, 5000);
    }
    await connections(0, 5000);
    expect(subscribers).toBe(0);
    expect(ticks.observed).toBe(false);
    expect(hub.stats()).toEqual({ connections: 0, ips: 0, sweepTimer: false });
  });
});
