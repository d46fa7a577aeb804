import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { rawGet, stalledClient } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const CAP = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/**
 * Issue 18, deliverable 7 (part): one client IP against the per-IP stream cap (D3), with every
 * stream of the app counted together, refusals in the D2 shape before the stream opens, and
 * 1,000 streams opened and dropped in a loop leaving no connection, timer or per-IP entry behind.
 */
describe(`stream abuse from one IP: cap ${CAP} (SSE_MAX_PER_IP), churn (issue 18)`, () => {
  let t: TestApp;
  let hub: SseHub;
  const url = (path: string) => `${t.baseUrl}${path}`;

  beforeAll(async () => {
    t = await startTestApp({ SSE_MAX_PER_IP: String(CAP), SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    hub = t.app.get(SseHub);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the cap counts every stream of the IP together; one more is a D2 429 before the stream opens', async () => {
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
});
