// `npm run bench:ingest-memory`: where an ingest worker's memory goes at 3,020
// markets, stage by stage, each figure after a forced full GC, in a fresh process per question:
//   worker: the five ccxt pro classes, the REST clients with their markets, the feed clients and
//           sockets with ccxt's caches after quotes flowed (CcxtIngest + TickAccumulator, exactly
//           what an ingest worker runs), then the young generation an ingest worker reserves;
//   all-ccxt: `import 'ccxt'` (what the service loaded before the ingest workers), for comparison.
// The simulator runs in its own process (walk on). Prints a Markdown table.
import { fork, spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';

const dist = path.resolve(new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const BASES = Number(process.env.BENCH_BASES ?? 302);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (b) => b / 1024 / 1024;

function snapshot() {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heap: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) };
}

async function worker(simUrl) {
  const rows = [['node, nothing loaded', snapshot()]];
  const { createExchangeClient } = await load('market-data/ccxt/exchange-clients.js');
  const { CcxtIngest } = await load('market-data/ccxt/ccxt-ingest.js');
  const { TickAccumulator } = await load('market-data/ingest/tick-batch.js');
  rows.push(['+ the five ccxt pro classes (and our ingest modules)', snapshot()]);
  const accumulator = new TickAccumulator(5, () => {});
  const ingest = new CcxtIngest({
    createClient: (e) => createExchangeClient(e, { simulatorUrl: simUrl }),
    clock: { now: () => Date.now() },
    silenceTimeoutMs: 30_000,
    backoff: { baseMs: 500, maxMs: 5_000 },
    marketsRefreshMs: 3_600_000,
    sink: accumulator,
    onState: () => {},
  });
  const exchanges = ['binance', 'bybit', 'okx', 'gate', 'bitget'];
  for (const e of exchanges) await ingest.listMarkets(e);
  rows.push(['+ one REST client per exchange with its markets loaded', snapshot()]);
  let index = 0;
  exchanges.forEach((e, k) => {
    for (const market of ['SPOT', 'FUTURES']) {
      const tickers = Array.from({ length: BASES }, (_, i) => `BX${i}-USDT`);
      const indexes = tickers.map(() => index++);
      accumulator.addMarkets(indexes, k);
      ingest.watch(e, market, tickers, indexes);
    }
  });
  await sleep(15_000);
  const received = accumulator.counts.received.reduce((a, b) => a + b, 0);
  rows.push([`+ feed clients (sockets, per-chunk markets, bid/ask caches) after ${received} quotes`, snapshot()]);
  await ingest.close();
  return rows;
}

async function allCcxt() {
  const rows = [['node, nothing loaded', snapshot()]];
  await import('ccxt');
  rows.push(["+ import 'ccxt' (every exchange class)", snapshot()]);
  return rows;
}

async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

async function main() {
  const simPort = await freePort();
  const bases = Array.from({ length: BASES }, (_, i) => `BX${i}`).join(',');
  const sim = spawn(process.execPath, [path.join(dist, 'simulator/main.js')], {
    env: { ...process.env, SIM_PORT: String(simPort), SIM_SYMBOLS: bases, SIM_WALK: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => sim.stdout.on('data', (d) => String(d).includes('listening') && resolve()));
  try {
    const ask = (mode) =>
      new Promise((resolve, reject) => {
        const child = fork(new URL(import.meta.url), [mode, `http://127.0.0.1:${simPort}`], { execArgv: ['--expose-gc'] });
        child.once('message', resolve);
        child.once('exit', (code) => code && reject(new Error(`${mode} exited ${code}`)));
      });
    console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}, node ${process.version}; ${BASES * 10} markets; every figure after two forced full GCs`);
    for (const mode of ['worker', 'all-ccxt']) {
      const rows = await ask(mode);
      console.log(`\n${mode === 'worker' ? 'What an ingest worker holds' : 'For comparison: all of ccxt'}\n`);
      console.log('| stage | RSS MB | heap used MB | external MB | of which ArrayBuffers MB | heap added MB |');
      console.log('|---|---|---|---|---|---|');
      rows.forEach(([label, m], i) => {
        const added = i === 0 ? '' : (m.heap - rows[i - 1][1].heap).toFixed(1);
        console.log(`| ${label} | ${m.rss.toFixed(0)} | ${m.heap.toFixed(1)} | ${m.external.toFixed(1)} | ${m.arrayBuffers.toFixed(1)} | ${added} |`);
      });
    }
    // What an ingest worker reserves beyond its live heap: the young generation it is given.
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(`\nThis process's new space (V8 default): ${mb(young?.space_size ?? 0).toFixed(0)} MB; an ingest worker's young generation is capped at 96 MB (WORKER_YOUNG_GENERATION_MB), of which up to two semi-spaces are committed while quotes flow.`);
  } finally {
    sim.kill('SIGTERM');
  }
}

const [mode, simUrl] = process.argv.slice(2);
if (mode === 'worker') process.send(await worker(simUrl));
else if (mode === 'all-ccxt') process.send(await allCcxt());
else await main();
if (mode) process.exit(0);
