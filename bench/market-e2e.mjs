// `npm run bench:market`: end-to-end market data through the exchange simulator.
// 5 exchanges x 300 symbols x (spot + perpetual) = 3,000 markets. The simulator runs as its own
// process (dist/simulator/main.js); the service runs in this process with ENABLED_WEBSOCKET=1,
// its unmodified ccxt pro clients connected to the simulator over loopback websockets.
// Batches of BENCH_BATCH quotes are pushed through PUT /_sim/quotes back to back for DURATION_S;
// every tick reaching the quote-book bus is counted (ticks/s, re-sends included) and every pushed
// quote is timed from just before its PUT to its arrival on the bus (push-to-quote-book latency).
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const SYMBOLS = Number(process.env.BENCH_SYMBOLS ?? 300);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 20);
// Quotes per PUT: a rotating slice of the 3,000 markets, so one control request does not
// dominate the latency figure (a 3,000-quote PUT takes the simulator ~0.4 s to apply by itself).
const BATCH = Number(process.env.BENCH_BATCH ?? 300);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

async function startSimulatorProcess() {
  const port = await freePort();
  const bases = Array.from({ length: SYMBOLS }, (_, i) => `BX${i}`);
  const child = spawn(process.execPath, [path.join(dist, 'simulator/main.js')], {
    env: { ...process.env, SIM_PORT: String(port), SIM_SYMBOLS: bases.join(','), SIM_WALK: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function startService(simUrl) {
  const { createApp } = await load('app.factory.js');
  const { loadConfig } = await load('config/validate-env.js');
  const { QuoteBook } = await load('market-data/quote-book.js');
  const { QUOTE_TICK_BUS } = await load('market-data/market-data.constants.js');
  const app = await createApp(
    loadConfig({
      LOG_LEVEL: 'silent', DATABASE_URL: '', DB_PATH: ':memory:', ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: simUrl, MAX_SYMBOLS: String(SYMBOLS), SAMPLE_INTERVAL_MS: '0',
    }),
  );
  await app.init();
  return { app, book: app.get(QuoteBook), bus: app.get(QUOTE_TICK_BUS) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const sim = await startSimulatorProcess();
  const { app, book, bus } = await startService(sim.url);
  try {
    const t0 = Date.now();
    while (book.size < SYMBOLS * 10 && Date.now() - t0 < 120_000) await sleep(100);
    console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}, node ${process.version}`);
    console.log(`all ${book.size} markets in the book ${Date.now() - t0} ms after start`);
    const base = [...book.snapshot()].map((q) => ({ exchange: q.exchange, market: q.market, ticker: q.ticker, bid: q.bid, ask: q.ask }));
    const pending = new Map();
    const latencies = [];
    let ticks = 0;
    const sub = bus.ticks.subscribe((t) => {
      ticks++;
      const key = `${t.exchange}|${t.market}|${t.ticker}`;
      const want = pending.get(key);
      if (want && Math.abs(t.bid - want.bid) <= want.bid * 1e-9) {
        latencies.push(t.receivedAt - want.at);
        pending.delete(key);
      }
    });
    const load0 = os.loadavg().map((l) => l.toFixed(1)).join(' ');
    const start = Date.now();
    let batches = 0;
    while (Date.now() - start < DURATION_S * 1000) {
      // Alternate between two on-grid quotes so every push is a change the feed must carry.
      const round = Math.floor((batches * BATCH) / base.length);
      const odd = round % 2 === 1;
      const slice = Array.from({ length: BATCH }, (_, i) => base[(batches * BATCH + i) % base.length]);
      const quotes = slice.map((q) => ({ ...q, bid: odd ? q.bid : q.ask, ask: odd ? q.ask : 2 * q.ask - q.bid }));
      const at = Date.now();
      for (const q of quotes) pending.set(`${q.exchange}|${q.market}|${q.ticker}`, { bid: q.bid, at });
      const res = await fetch(`${sim.url}/_sim/quotes`, { method: 'PUT', body: JSON.stringify(quotes), headers: { 'content-type': 'application/json' } });
      if (res.status !== 200) throw new Error(`PUT /_sim/quotes: ${res.status} ${await res.text()}`);
      batches++;
      await sleep(0);
    }
    await sleep(1000);
    const elapsed = (Date.now() - start) / 1000;
    sub.unsubscribe();
    latencies.sort((a, b) => a - b);
    const pushed = batches * BATCH;
    console.log(`load average before: ${load0}; ${batches} batches x ${BATCH} quotes in ${DURATION_S} s (+1 s drain)`);
    console.log(`ticks on the bus: ${ticks} = ${Math.round(ticks / elapsed)} ticks/s`);
    console.log(
      `push-to-quote-book latency over ${latencies.length} of ${pushed} pushed quotes ` +
        `(the rest were overtaken by the next batch): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
    );
  } finally {
    await app.close();
    sim.child.kill('SIGTERM');
  }
}

await main();
