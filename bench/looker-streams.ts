import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookerStreamsService } from '../src/lookers/looker-streams.service.js';
import { DEFAULT_SIM_SYMBOLS } from '../src/simulator/instruments.js';
import { type MarketFixture, startMarketFixture } from '../test/utils/market-fixture.js';

// 2,000 concurrent looker streams of 6 cryptos each. Service CPU seconds per wall
// second (this process: service + in-process simulator, minus an idle baseline with the same
// feeds) and events delivered per second (counted by the clients, in a separate process).
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const CRYPTOS = 6;
const WARMUP_MS = 5_000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 20_000);
const SYMBOLS = DEFAULT_SIM_SYMBOLS.map((base) => `${base}-USDT`);

let fx: MarketFixture;
let clients: ChildProcess;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Counts {
  type: 'counts';
  events: number;
  chunks: number;
  errors: number;
  gapP50: number | null;
  gapP99: number | null;
  gapMax: number | null;
  silentClients: number;
  cpuSeconds: number;
}

function ask<T>(child: ChildProcess, message: object, type: string, timeoutMs = 120_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} from the client process`)), timeoutMs);
    const onMessage = (reply: { type: string }) => {
      if (reply.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(reply as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** Six distinct cryptos per looker, spread over the 20 simulated symbols, half SPOT, half FUTURES. */
async function createLookers(baseUrl: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < STREAMS; start += 50) {
    const batch = Array.from({ length: Math.min(50, STREAMS - start) }, (_, k) => start + k).map(async (n) => {
      const cryptos = Array.from({ length: CRYPTOS }, (_, c) => SYMBOLS[(n * 7 + c * 3) % SYMBOLS.length] ?? 'BTC-USDT');
      const res = await fetch(`${baseUrl}/v1/lookers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `bench${n % 100}@example.com`, cryptos, market: n % 2 ? 'FUTURES' : 'SPOT' }),
      });
      return ((await res.json()) as { id: string }).id;
    });
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}

/** CPU seconds per wall second of this process over `ms`, with the event-loop delay p99. */
async function measure(ms: number): Promise<{ cpuPerWallSecond: number; loopDelayP99Ms: number }> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  await sleep(ms);
  const cpuPerWallSecond = (cpuSeconds() - cpu0) / ((performance.now() - t0) / 1000);
  loop.disable();
  return { cpuPerWallSecond, loopDelayP99Ms: loop.percentile(99) / 1e6 };
}

describe('through HTTP, clients in a separate process', () => {
  beforeAll(async () => {
    fx = await startMarketFixture(['binance'], SYMBOLS, {
      SSE_MAX_PER_IP: String(STREAMS + 100),
      SAMPLE_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
    });
    await fx.waitConnected(60_000);
    // Quotes keep moving, as on a live exchange (every market every 500 ms).
    await fx.simPost('/_sim/walk', { enabled: true, intervalMs: 500 });
    clients = fork(fileURLToPath(new URL('./looker-streams-clients.mjs', import.meta.url)), [], { stdio: 'inherit' });
  });

  afterAll(async () => {
    clients?.send({ type: 'exit' });
    await fx?.close();
  });

  it(`${STREAMS} concurrent looker streams of ${CRYPTOS} cryptos`, async () => {
    const ids = await createLookers(fx.app.baseUrl);
    const idle = await measure(10_000);
    const opened = performance.now();
    const connected = await ask<{ retries: number }>(clients, { type: 'open', baseUrl: fx.app.baseUrl, ids }, 'connected', 400_000);
    const connectSeconds = (performance.now() - opened) / 1000;
    await sleep(WARMUP_MS);
    const before = await ask<Counts>(clients, { type: 'mark' }, 'counts');
    const t0 = performance.now();
    const loaded = await measure(WINDOW_MS);
    const after = await ask<Counts>(clients, { type: 'mark' }, 'counts');
    const wallSeconds = (performance.now() - t0) / 1000;
    const stats = fx.app.app.get(LookerStreamsService).stats();
    const rss = process.memoryUsage().rss;
    const figures = {
      streams: STREAMS,
      cryptosPerLooker: CRYPTOS,
      connectSeconds: Number(connectSeconds.toFixed(1)),
      connectRetries: connected.retries,
      idleServiceCpuPerWallSecond: Number(idle.cpuPerWallSecond.toFixed(3)),
      serviceCpuPerWallSecond: Number(loaded.cpuPerWallSecond.toFixed(3)),
      streamsCpuPerWallSecond: Number((loaded.cpuPerWallSecond - idle.cpuPerWallSecond).toFixed(3)),
      eventsPerSecond: Math.round((after.events - before.events) / wallSeconds),
      expectedEventsPerSecond: STREAMS * CRYPTOS,
      cyclesPerSecond: Math.round((after.chunks - before.chunks) / wallSeconds),
      cycleGapP50Ms: after.gapP50,
      cycleGapP99Ms: after.gapP99,
      cycleGapMaxMs: after.gapMax,
      loopDelayP99Ms: Number(loaded.loopDelayP99Ms.toFixed(1)),
      silentClients: after.silentClients,
      errors: after.errors,
      serviceRssMb: Math.round(rss / 1024 / 1024),
      clientCpuPerWallSecond: Number(((after.cpuSeconds - before.cpuSeconds) / wallSeconds).toFixed(3)),
      lookerChannels: stats.lookers,
      clockSubscribers: stats.clockSubscribers,
      machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
    };
    console.log(`BENCH looker-streams ${JSON.stringify(figures)}`);
    expect(after.errors).toBe(0);
    expect(stats.clockSubscribers).toBe(STREAMS);
  }, 600_000);
});

it(`build cost of one beat for ${STREAMS} lookers (no sockets)`, async () => {
  const { LookerStreamClock } = await import('../src/lookers/looker-stream.clock.js');
  const { QuoteBook } = await import('../src/market-data/quote-book.js');
  const { InProcessQuoteTickBus } = await import('../src/market-data/quote-tick-bus.js');
  const { loadConfig } = await import('../src/config/validate-env.js');
  const book = new QuoteBook(new InProcessQuoteTickBus(), { now: () => Date.now() });
  for (const ticker of SYMBOLS) {
    for (const market of ['SPOT', 'FUTURES'] as const) {
      book.apply({ exchange: 'binance', market, ticker, bid: 1, ask: 2, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: Date.now() });
    }
  }
  const clock = new LookerStreamClock(1000);
  const service = new LookerStreamsService(loadConfig({ ENABLED_WEBSOCKET: '1', EXCHANGES: 'binance', LOG_LEVEL: 'silent' }), book, clock);
  let bytes = 0;
  const subs = Array.from({ length: STREAMS }, (_, n) =>
    service
      .frames(`l${n}`, {
        exchange: 'binance',
        market: n % 2 ? 'FUTURES' : 'SPOT',
        tickers: Array.from({ length: CRYPTOS }, (_, c) => SYMBOLS[(n * 7 + c * 3) % SYMBOLS.length] ?? 'BTC-USDT'),
      })
      .subscribe((frame) => (bytes += frame.bytes.length)),
  );
  const runs = 50;
  for (let i = 0; i < 5; i++) clock.beat(); // warm-up
  bytes = 0;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) clock.beat();
  const beatMs = (performance.now() - t0) / runs;
  console.log(`BENCH looker-beat ${JSON.stringify({ lookers: STREAMS, cryptos: CRYPTOS, beatMs: Number(beatMs.toFixed(2)), bytesPerBeat: Math.round(bytes / runs) })}`);
  subs.forEach((s) => s.unsubscribe());
  expect(clock.running).toBe(false);
});
