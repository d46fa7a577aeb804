// `npm run bench:ingest`: the built service in its own process, fed by the simulator
// in its own process over loopback websockets, both as the `operating` rule runs them. One run prints:
//  1. ccxt's own per-message cost (JSON.parse + the exchange class's handleMessage into its
//     bid/ask store), measured in this run on frames the simulator renders, per exchange, the
//     exchanges interleaved as in a worker; and
//     its own cost per book message, timed on live book subscriptions to the simulator;
//  2. default cadence over BENCH_BASES bases (302 → 3,020 markets, the simulator's walk every
//     500 ms plus its 1 s re-send): quotes/s and book updates/s (depth is on: the books of the
//     routes the walk opens), service CPU per message (all threads, /proc), CPU per thread, the
//     ratio to (1), RSS, latency exchange → quote book; in two windows: one while the start-up
//     REST work runs (settled funding for every perpetual), one once the simulator's REST calls
//     have fallen to BENCH_QUIET_RATE a second (the steady state);
//  3. the price stream at BENCH_CLIENTS (1,000) clients while the feeds run: the slowest
//     client's rate, the service's CPU above its idle of (2), against a plain node:http server
//     sending the same bytes to as many clients in this run (bench/plain-sse-server.mjs);
//  4. load mode (SIM_RATE, BENCH_RATE msg/s for BENCH_LOAD_SECONDS after BENCH_LOAD_WARMUP_SECONDS):
//     sustained quotes/s, backlog
//     (simulator sent - service received), p50/p99 exchange time → quote book;
//  5. RSS of a service with the feeds off.
// PostgreSQL from BENCH_PG_ADMIN (default: a fresh database on 127.0.0.1:5432), as the targets
// are stated for it. BENCH_CLIENTS=0 skips (3), BENCH_SKIP_LOAD=1 skips (4). After (2) the same
// feeds run on the embedded database in a folder for the same time, for its RSS beside
// PostgreSQL's (BENCH_EMBEDDED_RSS=0 skips it); with BENCH_DEPTH_ROUTES, the routes phase runs on
// it too, for its RSS with the books held.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, spawnNode, startService, waitMarkets } from './relay-pair.mjs';

const dist = path.resolve(new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const BASES = Number(process.env.BENCH_BASES ?? 302);
const WINDOW_S = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 30_000);
const LOAD_S = Number(process.env.BENCH_LOAD_SECONDS ?? 120);
const LOAD_WARMUP_S = Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 30);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
// BENCH_DEPTH_ROUTES: this many routes opened (one per base, each at 1 %), their two legs' quotes
// and books moved every BENCH_DEPTH_MOVE_MS, measured after the default cadence.
const DEPTH_ROUTES = Number(process.env.BENCH_DEPTH_ROUTES ?? 0);
const DEPTH_MOVE_MS = Number(process.env.BENCH_DEPTH_MOVE_MS ?? 100);
// The steady window waits until the simulator saw at most BENCH_QUIET_RATE REST calls a second
// over BENCH_QUIET_SECONDS (the start-up reads over), at most BENCH_QUIET_MAX_SECONDS.
const QUIET_S = Number(process.env.BENCH_QUIET_SECONDS ?? 15);
const QUIET_RATE = Number(process.env.BENCH_QUIET_RATE ?? 2);
const QUIET_MAX_S = Number(process.env.BENCH_QUIET_MAX_SECONDS ?? 600);
const EXCHANGES = ['binance', 'bybit', 'okx', 'gate', 'bitget'];
const BOOK_REF_SYMBOLS = 30;
const BOOK_REF_STAGGER_MS = 250;
const BOOK_REF_WARMUP_MS = 10_000;
const BOOK_REF_MS = 6000;
const CLIENT_PROCS = 2;
const PG = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = 100;

/** utime+stime of the process, and per thread (by name), in CPU seconds. */
function cpuOf(pid) {
  const threads = {};
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const s = (Number(f[11]) + Number(f[12])) / CLK_TCK;
      // Node names no thread; the ingest worker is the busiest after main, the rest are V8's GC helpers and libuv.
      const name = Number(tid) === pid ? 'main' : `${comm}#${tid}`;
      threads[name] = (threads[name] ?? 0) + s;
      total += s;
    } catch {
      // a thread that ended between readdir and read
    }
  }
  return { total, threads };
}

/** Where the memory is, as the service reports it: serving-thread heap and external, each worker's heap. */
async function memoryOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const one = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1e6;
  const workers = [...text.matchAll(/^market_ingest_worker_heap_bytes\{worker="([^"]+)"\} (\S+)$/gm)].map((m) => `${m[1]} ${(Number(m[2]) / 1e6).toFixed(0)}`);
  return `serving heap used ${one('nodejs_heap_size_used_bytes').toFixed(0)} MB of ${one('nodejs_heap_size_total_bytes').toFixed(0)}, external ${one('nodejs_external_memory_bytes').toFixed(0)} MB; worker heap used (MB): ${workers.join(', ') || 'no worker'}`;
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

async function metrics(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sum = (name, filter = '') =>
    [...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))].filter((m) => m[1].includes(filter)).reduce((n, m) => n + Number(m[2]), 0);
  const buckets = (stage) =>
    [...text.matchAll(new RegExp(`^market_tick_latency_seconds_bucket\\{stage="${stage}",exchange="[a-z]+",le="([^"]+)"\\} (\\S+)$`, 'gm'))].reduce(
      (acc, m) => acc.set(m[1], (acc.get(m[1]) ?? 0) + Number(m[2])),
      new Map(),
    );
  return {
    received: sum('market_ingest_received_total'),
    receivedBy: (e) => sum('market_ingest_received_total', `"${e}"`),
    books: sum('market_depth_messages_total'),
    booksBy: (e) => sum('market_depth_messages_total', `"${e}"`),
    applied: sum('market_ticks_total'), conflated: sum('market_ingest_conflated_total'), buckets };
}

/** Percentile from the difference of two cumulative bucket maps, as the bucket's upper bound in ms. */
function percentileMs(before, after, p) {
  const rows = [...after.entries()].map(([le, c]) => [le === '+Inf' ? Infinity : Number(le) * 1000, c - (before.get(le) ?? 0)]).sort((a, b) => a[0] - b[0]);
  const total = rows.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  return rows.find(([, c]) => c >= (p / 100) * total)?.[0] ?? null;
}

async function freshDatabase() {
  const name = `bench_ingest_${Date.now()}`;
  execFileSync('psql', [PG, '-qc', `CREATE DATABASE ${name}`]);
  return { url: PG.replace(/\/[^/]*$/, `/${name}`), drop: () => execFileSync('psql', [PG, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]) };
}

/** The service from `dist`, or from BENCH_SERVICE_DIST (another build, an older commit's dist/) against the same simulator. */
function startBenchService(env) {
  return startService(process.env.BENCH_SERVICE_DIST ? path.resolve(process.env.BENCH_SERVICE_DIST) : dist, env);
}

/**
 * ccxt's own cost per message, per exchange and market, on frames the simulator renders: JSON.parse
 * and the exchange class's handleMessage into its bid/ask store, 4,000 frames per exchange and
 * market, all ten interleaved in one loop as a worker's sockets interleave them (one loop per
 * exchange and market left ccxt's shared handlers monomorphic, which the service never sees, and
 * its figures moved by up to 2x from one run to the next). Each message is timed on its own;
 * 5 passes warm the JIT, then the median of 9 passes' means per exchange and market.
 * `interleaved: false` is that earlier method (each in a loop of its own), printed beside it.
 */
async function ccxtReference(simUrl, bases, { interleaved = true } = {}) {
  const { createExchangeClient } = await load('market-data/ccxt/exchange-clients.js');
  const { EXCHANGE_PROTOCOLS } = await load('simulator/venues/index.js');
  const { MarketState } = await load('simulator/market-state.js');
  const state = new MarketState(bases);
  const combos = [];
  for (const protocol of EXCHANGE_PROTOCOLS) {
    const exchange = protocol.name;
    const client = createExchangeClient(exchange, { simulatorUrl: simUrl });
    await client.loadMarkets();
    for (const market of ['SPOT', 'FUTURES']) {
      // A real connection gives the ws client ccxt's handler expects (its URL tells spot from perpetual).
      const symbol = market === 'SPOT' ? `${bases[0]}/USDT` : `${bases[0]}/USDT:USDT`;
      await client.watchBidsAsks([symbol]);
      const sockets = Object.values(client.clients);
      // okx and bitget carry both market types on one socket.
      const ws = sockets.find((c) => (market === 'SPOT') === !isPerpUrl(exchange, c.url)) ?? sockets[0];
      const frames = [];
      for (let i = 0; i < 4000; i++) {
        const ticker = `${bases[i % bases.length]}-USDT`;
        const q = state.get(exchange, market, ticker);
        const next = state.apply({ exchange, market, ticker, bid: q.bid * (i % 2 ? 1.0001 : 0.9999), ask: q.ask * (i % 2 ? 1.0001 : 0.9999) });
        frames.push(protocol.render(next, state));
      }
      combos.push({ key: `${exchange}:${market}`, client, ws, frames, passes: [] });
    }
  }
  const pass = () => {
    const spent = combos.map(() => 0);
    for (let i = 0; i < 4000; i++) {
      for (let c = 0; c < combos.length; c++) {
        const { client, ws, frames } = combos[c];
        const t = performance.now();
        client.handleMessage(ws, JSON.parse(frames[i]));
        spent[c] += performance.now() - t;
      }
    }
    return spent.map((ms) => (ms * 1000) / 4000);
  };
  if (interleaved) {
    for (let k = 0; k < 5; k++) pass(); // warm-up: JIT
    for (let k = 0; k < 9; k++) pass().forEach((us, c) => combos[c].passes.push(us));
  } else {
    // The earlier method, kept for comparison: each exchange and market in a loop of its own.
    for (const combo of combos) {
      const run = () => {
        const t = performance.now();
        for (const f of combo.frames) combo.client.handleMessage(combo.ws, JSON.parse(f));
        return ((performance.now() - t) * 1000) / combo.frames.length;
      };
      for (let k = 0; k < 5; k++) run();
      for (let k = 0; k < 9; k++) combo.passes.push(run());
    }
  }
  const out = {};
  for (const { key, passes } of combos) out[key] = passes.sort((a, b) => a - b)[4];
  await Promise.all([...new Set(combos.map((c) => c.client))].map((client) => client.close()));
  return out;
}

/**
 * ccxt's own cost per book message, per exchange and market: its `onMessage` (JSON.parse and the
 * exchange class's book handler) timed on every message of live book subscriptions to the
 * simulator, on the channels the service watches (each venue folder's depth limit), for 30 bases at a time
 * (about 90 messages a second per market type). A plain ccxt client: none of the service's
 * hooks. The first 10 s (the subscriptions, one every 250 ms, their snapshots, and ccxt's
 * handlers warming up in the JIT, as they are in a running service) are left out; the slowest
 * 1 % of messages too (a preempted call is not ccxt's cost). Both market types of an exchange
 * run together (okx and bitget carry them on one socket).
 */
async function ccxtDepthReference(simUrl, bases) {
  const { createExchangeClient } = await load('market-data/ccxt/exchange-clients.js');
  const { venueOf } = await load('venues/registry.js');
  const out = {};
  for (const exchange of EXCHANGES) {
    await Promise.all(['SPOT', 'FUTURES'].map(async (market) => {
      const client = createExchangeClient(exchange, { simulatorUrl: simUrl });
      await client.loadMarkets();
      const times = [];
      let recording = false;
      const open = client.client.bind(client);
      const timed = new WeakSet();
      client.client = (url) => {
        const ws = open(url);
        if (!timed.has(ws)) {
          timed.add(ws);
          const onMessage = ws.onMessage.bind(ws);
          ws.onMessage = (event) => {
            const t = performance.now();
            onMessage(event);
            if (recording) times.push(performance.now() - t);
          };
        }
        return ws;
      };
      let running = true;
      const loops = bases.slice(0, BOOK_REF_SYMBOLS).map(async (base, i) => {
        const symbol = market === 'SPOT' ? `${base}/USDT` : `${base}/USDT:USDT`;
        // One subscribe every 250 ms per market type: bitget closes a socket sent more than 10
        // messages a second, and carries both types on one.
        await sleep(i * BOOK_REF_STAGGER_MS);
        while (running) {
          try {
            await client.watchOrderBook(symbol, venueOf(exchange).depth.limit);
          } catch {
            await sleep(100);
          }
        }
      });
      // Snapshots first, then the JIT's warm-up: ccxt's handlers run hot in the service.
      await sleep(BOOK_REF_WARMUP_MS);
      recording = true;
      await sleep(BOOK_REF_MS);
      recording = false;
      running = false;
      await client.close();
      await Promise.allSettled(loops);
      times.sort((a, b) => a - b);
      const kept = times.slice(0, Math.max(1, Math.ceil(times.length * 0.99)));
      out[`${exchange}:${market}`] = { us: (1000 * kept.reduce((n, t) => n + t, 0)) / kept.length, messages: times.length };
    }));
  }
  return out;
}

function isPerpUrl(exchange, url) {
  switch (exchange) {
    case 'binance': return url.includes('fstream');
    case 'bybit': return url.includes('linear');
    case 'gate': return url.includes('fx-ws') || url.includes('/v4/ws/usdt');
    case 'okx': return false;
    case 'bitget': return false;
    default: return false;
  }
}

async function measureWindow(pid, url, seconds, simPid, simUrl) {
  const [c0, m0, t0, s0] = [cpuOf(pid), await metrics(url), Date.now(), cpuOf(simPid)];
  await sleep(seconds * 1000);
  const [c1, m1, t1, s1] = [cpuOf(pid), await metrics(url), Date.now(), cpuOf(simPid)];
  const wall = (t1 - t0) / 1000;
  const rest = simUrl ? Object.values(await restCalls(simUrl)).flat().filter((t) => t >= t0 && t < t1).length : null;
  const threads = Object.fromEntries(Object.keys(c1.threads).map((k) => [k, (c1.threads[k] - (c0.threads[k] ?? 0)) / wall]));
  return {
    wall,
    received: m1.received - m0.received,
    applied: m1.applied - m0.applied,
    conflated: m1.conflated - m0.conflated,
    receivedBy: (e) => m1.receivedBy(e) - m0.receivedBy(e),
    books: m1.books - m0.books,
    booksBy: (e) => m1.booksBy(e) - m0.booksBy(e),
    cpu: (c1.total - c0.total) / wall,
    simCpu: (s1.total - s0.total) / wall,
    threads,
    p50: percentileMs(m0.buckets('exchange_to_book'), m1.buckets('exchange_to_book'), 50),
    p99: percentileMs(m0.buckets('exchange_to_book'), m1.buckets('exchange_to_book'), 99),
    p99Serving: percentileMs(m0.buckets('worker_to_book'), m1.buckets('worker_to_book'), 99),
    restCalls: rest,
    rss: rssMb(pid),
    memory: await memoryOf(url),
  };
}

const ask = (child, msg, type) =>
  new Promise((resolve) => {
    const on = (reply) => {
      if (reply.type !== type) return;
      child.off('message', on);
      resolve(reply);
    };
    child.on('message', on);
    child.send(msg);
  });

/** One complete data frame of an SSE stream (comments and the retry line skipped), as bytes. */
function captureFrame(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let buf = Buffer.alloc(0);
      res.on('data', (chunk) => {
        buf = Buffer.concat([buf, chunk]);
        for (let at = buf.indexOf('\n\n'); at !== -1; at = buf.indexOf('\n\n')) {
          const frame = buf.subarray(0, at + 2);
          buf = buf.subarray(at + 2);
          if (frame.includes('data:')) {
            req.destroy();
            resolve(Buffer.from(frame));
            return;
          }
        }
      });
    });
    req.on('error', reject);
  });
}

/** CLIENTS readers of `url` in CLIENT_PROCS processes; after a warm-up, CPU of `pid` and the clients' rates over `seconds`. */
async function fanOut(url, pid, seconds, cpuSecondsOf = () => cpuOf(pid).total) {
  const procs = Array.from({ length: CLIENT_PROCS }, () => fork(new URL('./sse-fanout-clients.mjs', import.meta.url)));
  try {
    const share = (i) => Math.floor(CLIENTS / CLIENT_PROCS) + (i < CLIENTS % CLIENT_PROCS ? 1 : 0);
    await Promise.all(procs.map((c, i) => ask(c, { type: 'open', url, n: share(i), stalled: 0 }, 'open')));
    await sleep(5_000);
    procs.forEach((c) => c.send({ type: 'mark' }));
    const [c0, t0] = [await cpuSecondsOf(), Date.now()];
    await sleep(seconds * 1000);
    const [c1, t1] = [await cpuSecondsOf(), Date.now()];
    const reports = await Promise.all(procs.map((c) => ask(c, { type: 'report' }, 'report')));
    return { cpu: (c1 - c0) / ((t1 - t0) / 1000), rateMin: Math.min(...reports.map((r) => r.rateMin)), delivered: reports.reduce((n, r) => n + r.delivered, 0) };
  } finally {
    procs.forEach((c) => c.kill());
    await sleep(1_000);
  }
}

/**
 * The price stream at CLIENTS clients while the feeds run, against a plain node:http server
 * sending the same bytes (a frame captured from the service, once a second) to the same number
 * of clients, in the same run.
 */
async function priceStreamAtScale(service, idleCpu) {
  const url = `${service.url}/v1/realtime/prices`;
  const frame = await captureFrame(url);
  const served = await fanOut(url, service.child.pid, WINDOW_S);
  const rss = rssMb(service.child.pid);
  const framePath = path.join(os.tmpdir(), `bench-ingest-frame-${process.pid}`);
  writeFileSync(framePath, frame);
  const plain = fork(new URL('./plain-sse-server.mjs', import.meta.url));
  try {
    const { port } = await ask(plain, { type: 'frame', path: framePath }, 'ready');
    const reference = await fanOut(`http://127.0.0.1:${port}/`, plain.pid, WINDOW_S, async () => (await ask(plain, { type: 'stats' }, 'stats')).cpuSeconds);
    const above = served.cpu - idleCpu;
    console.log(`price stream, ${CLIENTS} clients on /v1/realtime/prices, frame ${fmt(frame.length / 1024, 0)} KB, ${WINDOW_S} s window:`);
    console.log(`  service: slowest client ${fmt(served.rateMin, 2)} Hz (target >= 0.97), ${fmt(served.delivered, 0)} frames/s delivered; CPU ${fmt(served.cpu * 100)} % of a core, ${fmt(above * 100)} % above its idle (${fmt(idleCpu * 100)} %); RSS ${fmt(rss, 0)} MB`);
    console.log(`  plain node:http, same bytes: slowest client ${fmt(reference.rateMin, 2)} Hz, ${fmt(reference.delivered, 0)} frames/s; CPU ${fmt(reference.cpu * 100)} % of a core`);
    console.log(`  ratio (service above idle / plain) ${fmt(above / reference.cpu, 2)} (target <= 1.5); machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    plain.kill();
    rmSync(framePath, { force: true });
  }
}

/**
 * Routes with books: route i on base i buys on one exchange and sells on another (every ordered
 * pair in turn) at a 1 % gross spread; the base's other exchanges quote a wide market around it
 * so no other route of the base opens. Every DEPTH_MOVE_MS both legs move a tick (the spread
 * kept), which moves their books too: 2 x routes book updates per move. The ratio counts the
 * book updates the workers received as messages, priced at ccxt's own cost for a spot book
 * message on their exchange (ccxtDepthReference).
 */
async function depthRoutes(service, simUrl, simPid, bases, costs, cadence, { database = 'PostgreSQL', rssTarget = 450 } = {}) {
  const exchanges = EXCHANGES;
  const put = async (body) => {
    const res = await fetch(`${simUrl}/_sim/quotes`, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    if (!res.ok) throw new Error(`PUT /_sim/quotes: ${res.status} ${await res.text()}`);
  };
  // Each base at its own price level: the routes' legs and the base's other exchanges are set
  // around the base's binance spot mid, every move (the walk moves every market it is not told to).
  const state = await (await fetch(`${simUrl}/_sim/state`)).json();
  const mid = new Map(state.quotes.filter((q) => q.exchange === 'binance' && q.market === 'SPOT').map((q) => [q.ticker, (q.bid + q.ask) / 2]));
  const routes = bases.slice(0, DEPTH_ROUTES).map((base, i) => {
    const buy = exchanges[i % 5];
    const sell = exchanges[(i % 5 + 1 + (Math.floor(i / 5) % 4)) % 5];
    const ticker = `${base}-USDT`;
    return { ticker, buy, sell, p: mid.get(ticker) ?? 1 };
  });
  // Buy leg ask p, sell leg bid 1.01 p: 1 % gross. The others bid p and ask 1.01 p: no route with either leg.
  const legs = (f) => routes.flatMap(({ ticker, buy, sell, p }) => [
    { exchange: buy, market: 'SPOT', ticker, bid: 0.999 * p * f, ask: p * f },
    { exchange: sell, market: 'SPOT', ticker, bid: 1.01 * p * f, ask: 1.011 * p * f },
    ...exchanges.filter((e) => e !== buy && e !== sell).map((exchange) => ({ exchange, market: 'SPOT', ticker, bid: p * f, ask: 1.01 * p * f })),
  ]);
  // The walk leaves the routes' bases alone: it would end each route at its next step until the
  // driver set the quotes again (routes flapping every 500 ms churn the books held).
  const holdBases = async (tickers) => {
    const res = await fetch(`${simUrl}/_sim/walk`, { method: 'POST', body: JSON.stringify({ enabled: true, hold: tickers }), headers: { 'content-type': 'application/json' } });
    if (!res.ok) throw new Error(`POST /_sim/walk: ${res.status} ${await res.text()}`);
  };
  await holdBases(routes.map((r) => r.ticker));
  let moves = 0;
  let moving = true;
  const mover = (async () => {
    while (moving) {
      const started = Date.now();
      await put(legs(moves % 2 ? 1.0001 : 1));
      moves += 1;
      await sleep(Math.max(0, DEPTH_MOVE_MS - (Date.now() - started)));
    }
  })();
  try {
    const t0 = Date.now();
    let books = 0;
    for (let i = 0; i < 600 && books < 2 * DEPTH_ROUTES; i++) {
      try {
        const res = await fetch(`${service.url}/health/market`, { signal: AbortSignal.timeout(60_000) });
        books = Object.values((await res.json()).books ?? {}).reduce((n, b) => n + b, 0);
      } catch (err) {
        // A serving thread too busy to answer is a result too: measured as it is.
        console.log(`  /health/market not answered within 60 s (${err.name}), ${Date.now() - t0} ms after the routes were set`);
        break;
      }
      if (books < 2 * DEPTH_ROUTES) await sleep(500);
    }
    console.log(`${database}: ${DEPTH_ROUTES} routes, legs moved every ${DEPTH_MOVE_MS} ms: ${books} books held ${Date.now() - t0} ms after the routes were set; warm-up 10 s`);
    await sleep(10_000);
    const m0 = moves;
    const w = await measureWindow(service.child.pid, service.url, WINDOW_S, simPid);
    // Book updates as the workers received them (the routes', all spot, and any the walk opens),
    // priced at ccxt's own cost for a spot book message on the exchange.
    const quoteRef = exchanges.reduce((n, e) => n + w.receivedBy(e) * costs.quote(e), 0);
    const bookRef = exchanges.reduce((n, e) => n + w.booksBy(e) * costs.bookSpot(e), 0);
    const refPerMsg = (quoteRef + bookRef) / (w.received + w.books);
    const aloneRefPerMsg = (exchanges.reduce((n, e) => n + w.receivedBy(e) * costs.quoteAlone(e), 0) + bookRef) / (w.received + w.books);
    const perMsg = (w.cpu * 1e6) / ((w.received + w.books) / w.wall);
    console.log(`  quotes received ${fmt(w.received / w.wall, 0)}/s, book updates received ${fmt(w.books / w.wall, 0)}/s (the driver moved ${fmt((2 * DEPTH_ROUTES * (moves - m0)) / w.wall, 0)} books/s), moves ${fmt((moves - m0) / w.wall, 1)}/s`);
    console.log(`  service CPU ${fmt(w.cpu * 100)} % of a core = ${fmt(perMsg)} µs per message; ccxt's own cost for this mix ${fmt(refPerMsg)} µs: ratio ${fmt(perMsg / refPerMsg, 2)} (target <= 2.5); against the earlier one-loop-per-exchange reference ${fmt(aloneRefPerMsg)} µs: ${fmt(perMsg / aloneRefPerMsg, 2)}`);
    console.log(`  (without depth, same run: ${fmt((cadence.cpu * 1e6) / (cadence.received / cadence.wall))} µs per quote)`);
    console.log(`  CPU per thread (% of a core): ${Object.entries(w.threads).filter(([, v]) => v > 0.001).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v * 100)}`).join(', ')}`);
    console.log(`  RSS ${fmt(rssMb(service.child.pid), 0)} MB (target <= ${rssTarget} on ${database}); ${await memoryOf(service.url)}; machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    moving = false;
    await mover;
    // The phases after this one meet the walk over every market again.
    await holdBases([]);
  }
}

const fmt = (n, d = 1) => (n === null || n === undefined ? 'n/a' : Number(n).toFixed(d));

/**
 * One window of the default cadence: the traffic's own mix is each exchange's quotes (half spot,
 * half perpetual: the walk moves every market), priced at ccxt's bid/ask cost, and the book
 * updates of the routes the walk opens (depth is on by default), as the workers count them,
 * priced at ccxt's own cost for a book message on that exchange.
 */
function reportCadence(title, w, costs) {
  const messages = w.received + w.books;
  const refPerMsg = EXCHANGES.reduce((n, e) => n + w.receivedBy(e) * costs.quote(e) + w.booksBy(e) * costs.book(e), 0) / messages;
  const aloneRefPerMsg = EXCHANGES.reduce((n, e) => n + w.receivedBy(e) * costs.quoteAlone(e) + w.booksBy(e) * costs.book(e), 0) / messages;
  const perMsg = (w.cpu * 1e6) / (messages / w.wall);
  console.log(title);
  console.log(`  quotes received ${fmt(w.received / w.wall, 0)}/s, applied ${fmt(w.applied / w.wall, 0)}/s, conflated ${fmt(w.conflated / w.wall, 0)}/s; book updates received ${fmt(w.books / w.wall, 0)}/s`);
  console.log(`  service CPU ${fmt(w.cpu * 100)} % of a core = ${fmt(perMsg)} µs per message (quotes and book updates); ccxt's own cost for this mix ${fmt(refPerMsg)} µs: ratio ${fmt(perMsg / refPerMsg, 2)} (target <= 2.5); against the earlier one-loop-per-exchange reference ${fmt(aloneRefPerMsg)} µs: ${fmt(perMsg / aloneRefPerMsg, 2)}`);
  console.log(`  (per quote alone, book updates not counted: ${fmt((w.cpu * 1e6) / (w.received / w.wall))} µs)`);
  console.log(`  simulator CPU ${fmt(w.simCpu * 100)} % of a core; machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`  CPU per thread (% of a core): ${Object.entries(w.threads).filter(([, v]) => v > 0.001).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v * 100)}`).join(', ')}`);
  console.log(`  exchange time -> quote book p50 ${fmt(w.p50, 1)} ms, p99 ${fmt(w.p99, 1)} ms (bucket bounds); worker -> book p99 ${fmt(w.p99Serving, 1)} ms`);
  console.log(`  RSS ${fmt(w.rss, 0)} MB (target <= 400 on PostgreSQL); ${w.memory}`);
}

/**
 * Waits until the simulator has seen at most QUIET_RATE REST calls a second over the last
 * `quietS` seconds (binance's settled funding, paced at about 1 call a second, is the last to
 * finish and costs little); null after `maxS`.
 */
async function waitRestQuiet(simUrl, quietS, maxS) {
  const started = Date.now();
  while (Date.now() - started < maxS * 1000) {
    const now = Date.now();
    const recent = Object.values(await restCalls(simUrl)).flat().filter((t) => t > now - quietS * 1000).length;
    if (now - started >= quietS * 1000 && recent <= QUIET_RATE * quietS) return now - started;
    await sleep(1000);
  }
  return null;
}

async function restCalls(simUrl) {
  return (await fetch(`${simUrl}/_sim/rest-calls`)).json();
}

async function main() {
  const bases = Array.from({ length: BASES }, (_, i) => `BX${i}`);
  console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const simPort = await freePort();
  const simUrl = `http://127.0.0.1:${simPort}`;
  const sim = await spawnNode(path.join(dist, 'simulator/main.js'), { SIM_PORT: String(simPort), SIM_SYMBOLS: bases.join(','), SIM_WALK: '1' }, 'listening');
  const db = await freshDatabase();
  let service;
  try {
    const alone = await ccxtReference(simUrl, bases, { interleaved: false });
    console.log(`ccxt's own cost per message, each exchange and market in a loop of its own (the earlier reference; µs, median of 9 x 4,000): ${Object.entries(alone).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    const reference = await ccxtReference(simUrl, bases);
    console.log(`ccxt's own cost per message, interleaved (µs, median of 9 x 4,000): ${Object.entries(reference).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    const bookReference = await ccxtDepthReference(simUrl, bases);
    console.log(`ccxt's own cost per book message (µs, mean over live messages, count in brackets): ${Object.entries(bookReference).map(([k, v]) => `${k} ${fmt(v.us)} (${v.messages})`).join(', ')}`);
    const costs = {
      quote: (e) => (reference[`${e}:SPOT`] + reference[`${e}:FUTURES`]) / 2,
      quoteAlone: (e) => (alone[`${e}:SPOT`] + alone[`${e}:FUTURES`]) / 2,
      book: (e) => (bookReference[`${e}:SPOT`].us + bookReference[`${e}:FUTURES`].us) / 2,
      bookSpot: (e) => bookReference[`${e}:SPOT`].us,
    };

    service = await startBenchService({ DATABASE_URL: db.url, ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: simUrl, MAX_SYMBOLS: String(BASES), SSE_MAX_PER_IP: String(CLIENTS + 10) });
    const t0 = Date.now();
    await waitMarkets(service.url, BASES * 10);
    console.log(`feeds up: ${BASES * 10} markets ${Date.now() - t0} ms after the service listened; warm-up 10 s`);
    await sleep(10_000);
    // While the service starts, it also reads the venues over REST: markets, volumes, funding and
    // 30 days of settled funding for every perpetual, paced to the venues' limits (minutes at
    // 3,020 markets). The first window has that work in it; the second starts once the simulator's
    // REST calls have fallen to QUIET_RATE a second, and is the steady state the target is about.
    const startup = await measureWindow(service.child.pid, service.url, WINDOW_S, sim.pid, simUrl);
    reportCadence(`default cadence, ${BASES * 10} markets, ${fmt(startup.wall, 0)} s window, while the start-up REST work runs (${startup.restCalls} REST calls in it):`, startup, costs);
    const quiet = await waitRestQuiet(simUrl, QUIET_S, QUIET_MAX_S);
    const steadyFrom = (Date.now() - t0) / 1000;
    const w = await measureWindow(service.child.pid, service.url, WINDOW_S, sim.pid, simUrl);
    reportCadence(`default cadence, ${fmt(w.wall, 0)} s window, steady: ${quiet === null ? `REST still busy after ${QUIET_MAX_S} s` : `at most ${QUIET_RATE} REST calls a second over ${QUIET_S} s, from ${fmt(steadyFrom, 0)} s after the service listened`} (${w.restCalls} REST calls in the window):`, w, costs);

    // The PostgreSQL service's routes phase comes first: the routes' subscriptions, and the
    // venues' hourly subscribe budgets, are then its own (a service beside another one's routes
    // phase subscribes those books too).
    if (DEPTH_ROUTES > 0) await depthRoutes(service, simUrl, sim.pid, bases, costs, w);

    if (process.env.BENCH_EMBEDDED_RSS !== '0') {
      // The same feeds on the embedded database in a folder (the default without DATABASE_URL),
      // its RSS at the same age; the PostgreSQL service waits meanwhile with its feeds on.
      const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
      const embedded = await startBenchService({ DB_PATH: path.join(folder, 'db'), ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: simUrl, MAX_SYMBOLS: String(BASES) });
      try {
        const started = Date.now();
        await waitMarkets(embedded.url, BASES * 10);
        await sleep(10_000 + WINDOW_S * 1000); // the PostgreSQL run's warm-up and window, so both are read at the same age as its default cadence
        console.log(`embedded database (folder), same feeds, ${fmt((Date.now() - started) / 1000, 0)} s after it listened: RSS ${fmt(rssMb(embedded.child.pid), 0)} MB (target <= 500); ${await memoryOf(embedded.url)}`);
        // The routes on the embedded database, for its RSS with the books held (target 600 MB).
        // The PostgreSQL service runs beside it on the same feeds: this phase's CPU figures are
        // not the ratio's; the PostgreSQL service's own routes phase above is.
        if (DEPTH_ROUTES > 0) await depthRoutes(embedded, simUrl, sim.pid, bases, costs, w, { database: 'embedded database (folder), the PostgreSQL service running beside it', rssTarget: 600 });
      } finally {
        embedded.child.kill('SIGTERM');
        await new Promise((r) => embedded.child.once('exit', r));
        rmSync(folder, { recursive: true, force: true });
      }
    }

    if (CLIENTS > 0) await priceStreamAtScale(service, w.cpu);

    if (process.env.BENCH_SKIP_LOAD !== '1') {
      const simApi = async (method, route, body) => {
        const res = await fetch(`${simUrl}${route}`, { method, body: body && JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      // Load mode alone (plus the simulator's 1 s re-sends): the walk's 500 ms bursts are off.
      await simApi('POST', '/_sim/walk', { enabled: false });
      await simApi('POST', '/_sim/load', { rate: RATE });
      // Until the switch-over's queue has drained and the JIT has seen the load's frames.
      await sleep(LOAD_WARMUP_S * 1000);
      const backlog = async () => (await simApi('GET', '/_sim/load')).framesSent - (await metrics(service.url)).received;
      const [s0, b0] = [await simApi('GET', '/_sim/load'), await backlog()];
      const half = await measureWindow(service.child.pid, service.url, LOAD_S / 2, sim.pid);
      const b1 = await backlog();
      const l = await measureWindow(service.child.pid, service.url, LOAD_S / 2, sim.pid);
      const [s1, b2] = [await simApi('GET', '/_sim/load'), await backlog()];
      await simApi('POST', '/_sim/load', { rate: 0 });
      const wall = half.wall + l.wall;
      console.log(`load mode ${RATE} msg/s for ${fmt(wall, 0)} s: simulator sent ${fmt((s1.framesSent - s0.framesSent) / wall, 0)} frames/s (${fmt((s1.sent - s0.sent) / wall, 0)}/s of load), service received ${fmt((half.received + l.received) / wall, 0)}/s, applied ${fmt((half.applied + l.applied) / wall, 0)}/s`);
      console.log(`  backlog (frames sent - quotes received): ${b0} at start, ${b1} at half time, ${b2} at the end`);
      console.log(`  exchange time -> quote book: first half p50 ${fmt(half.p50, 1)} / p99 ${fmt(half.p99, 1)} ms, second half p50 ${fmt(l.p50, 1)} / p99 ${fmt(l.p99, 1)} ms (bucket bounds; target p99 <= 50)`);
      console.log(`  simulator CPU ${fmt(l.simCpu * 100)} % of a core; machine load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      console.log(`  service CPU ${fmt(l.cpu * 100)} % of a core; per thread: ${Object.entries(l.threads).filter(([, v]) => v > 0.001).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v * 100)}`).join(', ')}; RSS ${fmt(rssMb(service.child.pid), 0)} MB`);
    }
    service.child.kill('SIGTERM');
    await sleep(1000);
    service = await startBenchService({ DATABASE_URL: db.url, ENABLED_WEBSOCKET: '0' });
    await sleep(5_000);
    console.log(`feeds off: RSS ${fmt(rssMb(service.child.pid), 0)} MB (target <= 200); ${await memoryOf(service.url)}`);
  } finally {
    service?.child.kill('SIGTERM');
    sim.kill('SIGTERM');
    await sleep(1000);
    db.drop();
  }
}

await main();
process.exit(0);
