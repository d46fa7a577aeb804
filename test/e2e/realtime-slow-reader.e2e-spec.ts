import http from 'node:http';
import net from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { PriceSnapshotService } from '../../src/realtime/price-snapshot.service.js';
import { startMarketFixture, type MarketFixture } from '../utils/market-fixture.js';
import { rawGet } from '../utils/sse-client.js';
import { sleep, until as untilShared } from '../utils/wait.js';

/** 100 bases on five exchanges, both markets: 1,000 quotes, a frame of about 175 KB every second. */
const BASES = Array.from({ length: 100 }, (_, i) => `R${String(i).padStart(3, '0')}-USDT`);
const EXCHANGES = ['binance', 'okx', 'bybit', 'gate', 'bitget'];
const CAP = 4;
const STALL_MS = 3000;
const SLOW_READERS = CAP - 1;

/**
 * A client that reads one byte a second, as a starved mobile link or a deliberately slow peer
 * would: a raw socket in paused mode, `read(1)` once a second. Node buffers at most its high
 * water mark from the kernel, so the server sees the socket drain at about 1 B/s.
 */
function slowReader(baseUrl: string, path: string) {
  const { hostname, port } = new URL(baseUrl);
  let bytes = 0;
  const socket = net.connect(Number(port), hostname, () =>
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`));
  const drip = setInterval(() => {
    const chunk = socket.read(1) as Buffer | null;
    if (chunk) bytes += chunk.length;
  }, 1000);
  socket.on('error', () => undefined);
  socket.on('close', () => clearInterval(drip));
  // The server's close is not seen here until the buffered bytes are read (at 1 B/s, never):
  // the hub's count and its disconnect metric tell when the server has cut the reader off.
  return { bytes: () => bytes, destroy: () => socket.destroy() };
}

/** A healthy reader that keeps only the arrival time of each frame (no copy of the frames). */
function frameClock(url: string) {
  const arrivals: number[] = [];
  let tail = '';
  const req = http.get(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const parts = (tail + chunk).split('\n\n');
      tail = parts.pop() ?? '';
      for (const part of parts) if (part.startsWith('data:')) arrivals.push(Date.now());
    });
  });
  req.on('error', () => undefined);
  return { arrivals, close: () => req.destroy() };
}

/** Resolves once `condition` holds (the shared until, polling every 50 ms). */
const until = (condition: () => boolean, timeoutMs: number): Promise<boolean> => untilShared(condition, (ok) => ok, timeoutMs, 50);

function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Clients that read one byte a second. Under the `streams` rule each costs one frame
 * at most: it skips ticks while its previous frame has not drained and is cut off after
 * SSE_STALL_TIMEOUT_MS of skipping (3 s here, 30 s by default). A healthy client of the same
 * stream keeps its 1 s cadence throughout, the per-IP cap (SSE_MAX_PER_IP) counts the slow
 * readers while they last and frees their slots when they are cut off, and memory returns to
 * its baseline afterwards.
 */
describe('clients of the price stream that read one byte a second (rules: streams)', () => {
  let m: MarketFixture;
  let hub: SseHub;

  beforeAll(async () => {
    m = await startMarketFixture(EXCHANGES, BASES, {
      SSE_MAX_PER_IP: String(CAP),
      SSE_STALL_TIMEOUT_MS: String(STALL_MS),
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      CROSSING_JOB_ENABLED: '0',
      // The heap bound is about the streams' buffers: the funding backfill (30 days of every
      // perpetual, kept in memory) and order books held for open routes grow on their own and
      // are measured by their own benches.
      FUNDING_REFRESH_MS: '0',
      DEPTH_ENABLED: '0',
    });
    await m.waitConnected(120_000);
    const snapshot = m.app.app.get(PriceSnapshotService);
    await untilShared(() => snapshot.snapshot().length, (n) => n >= 1000, 20_000, 200);
    hub = m.app.app.get(SseHub);
  }, 180_000);
  afterAll(async () => {
    await m?.close();
  });

  it(`${SLOW_READERS} readers at 1 B/s hold their slots, are cut off as stalled, and a healthy reader keeps its 1 s cadence`, async () => {
    expect(m.app.app.get(PriceSnapshotService).snapshot().length).toBe(1000);
    const url = `${m.app.baseUrl}/v1/realtime/prices`;
    const metric = async (reason: string): Promise<number> => {
      const text = await (await fetch(`${m.app.baseUrl}/metrics`)).text();
      return Number(new RegExp(`sse_disconnects_total\\{stream="prices",reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    };
    const stalledBefore = await metric('stalled');
    const baseline = heapAfterGc();

    const healthy = frameClock(url);
    await until(() => healthy.arrivals.length >= 2, 5000);
    const slow = Array.from({ length: SLOW_READERS }, () => slowReader(m.app.baseUrl, '/v1/realtime/prices'));
    await until(() => hub.stats().connections === CAP, 5000);

    // The cap counts the slow readers: one more stream from this IP is refused before it opens.
    const refused = await rawGet(url, 300);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ statusCode: 429, message: 'too many open streams', error: 'Too Many Requests' });

    // Each slow reader is cut off once its socket has backed up (the kernel's buffers hold some
    // 20 frames) and it has then skipped ticks for STALL_MS; its bytes read stay a handful.
    const cutOffStart = Date.now();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const peak = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 250);
    const stalled = await untilShared(async () => (await metric('stalled')) - stalledBefore, (n) => n >= SLOW_READERS, 60_000, 500);
    clearInterval(peak);
    const cutOffMs = Date.now() - cutOffStart;
    expect(stalled).toBe(SLOW_READERS);
    expect(slow.every((s) => s.bytes() < 60)).toBe(true);
    slow.forEach((s) => s.destroy());
    expect(rssPeak - rssBefore).toBeLessThan(100 * 1024 * 1024);

    // The healthy reader's frames kept coming once a second the whole time.
    const during = healthy.arrivals.filter((at) => at >= cutOffStart);
    const gaps = during.slice(1).map((at, i) => at - during[i]);
    console.log(JSON.stringify({ cutOffMs, healthyFrames: during.length, maxGapMs: Math.max(...gaps), rssGrowthMb: Math.round((rssPeak - rssBefore) / 1e6) }));
    expect(during.length).toBeGreaterThanOrEqual(Math.floor(cutOffMs / 1000) - 2);
    expect(Math.max(...gaps)).toBeLessThan(2000);

    // Their slots are free again: the healthy stream is the only one, and a new one opens.
    expect(hub.stats().connections).toBe(1);
    const again = await rawGet(url, 300);
    expect(again.status).toBe(200);
    healthy.close();
    await until(() => hub.stats().connections === 0, 5000);
    await sleep(200); // time: closed sockets' buffers are released on a later turn before the heap is read
    expect(heapAfterGc() - baseline).toBeLessThan(4 * 1024 * 1024);
  }, 90_000);
});
