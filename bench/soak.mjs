// `npm run bench:soak`: the built service as the demo runs it (simulator with its random
// walk, live feeds, embedded database, recorders on) for SOAK_MINUTES (default 60), with
// SOAK_CLIENTS (200) stream clients that come and go (each lives 10-120 s, then another takes
// its place) and a steady REST mix (SOAK_RPS, 20 requests/s). Every minute the service's main
// heap is measured after a forced GC (through the inspector, so the service runs unmodified),
// with its RSS and open file descriptors. Prints per-minute samples and the figures:
//  - heap and RSS growth after warm-up (SOAK_WARMUP_MINUTES, 15), least-squares slopes in
//    MB/hour (RSS is the whole process: both threads' heaps, the embedded engine's WebAssembly
//    memory, buffers; the target is RSS under 5 MB/hour);
//  - the RSS by kind of mapping every minute (bench/smaps.mjs) and each kind's slope, to tell the
//    heaps' pages from the engine's WebAssembly memory and the threads' malloc arenas;
//  - open descriptors and sockets before the first client and at the end, once the clients have
//    gone;
//  - error lines the service logged; stream frames and REST answers by status.
// SOAK_TRACE_GC=1 reads the heap from --trace-gc's full collections instead of the inspector (no forced
// collection every minute: the run to judge RSS by).
// SOAK_NODE_ARGS adds node options to the service's command line; SOAK_SERVICE_LOG=<file> keeps
// a copy of its standard output (for --trace-opt / --trace-deopt studies).
// SOAK_FEEDS=0 runs the service without feeds (to tell REST and stream memory from market data).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { serviceNodeFlags } from './service-flags.mjs';
import { rssByKind } from './smaps.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const WARMUP = Number(process.env.SOAK_WARMUP_MINUTES ?? 15);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 200);
const RPS = Number(process.env.SOAK_RPS ?? 20);
const TRACE_GC = process.env.SOAK_TRACE_GC === '1';
// SOAK_NODE_ARGS: extra node options for the service (space-separated), e.g. V8 flags under study.
const extraNodeArgs = (process.env.SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);
// SOAK_DIST: a copy of dist/ to run, so a rebuild during the hour does not pull files from under it.
const dist = path.resolve(process.env.SOAK_DIST ?? new URL('../dist', import.meta.url).pathname);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

function start(script, env, args = [], copyTo = undefined) {
  const child = spawn(process.execPath, [...args, path.join(dist, script)], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (copyTo) child.stdout.pipe(createWriteStream(copyTo));
  const log = { errors: [], lines: 0, lastMarkCompactMb: NaN, mainIsolate: undefined, stopping: false };
  let rest = '';
  child.stdout.on('data', (chunk) => {
    rest += chunk;
    const lines = rest.split('\n');
    rest = lines.pop();
    for (const line of lines) {
      log.lines++;
      // --trace-gc: "[pid:isolate] 12345 ms: Mark-Compact 60.1 (65.0) -> 52.3 (60.2) MB, ...".
      // Ingest worker threads are isolates of their own and print too; the main thread's is the
      // first isolate to collect (during start-up, before any worker exists).
      const gc = /^\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: /.exec(line);
      if (gc) {
        log.mainIsolate ??= gc[1];
        const mc = /Mark-Compact[^>]*-> ([\d.]+) \(/.exec(line);
        if (mc && gc[1] === log.mainIsolate) log.lastMarkCompactMb = Number(mc[1]);
        continue;
      }
      if (line.startsWith('[')) continue;
      if (line.includes('"level":"error"')) log.errors.push(line.slice(0, 500));
    }
  });
  child.stderr.on('data', (chunk) => {
    // --inspect's own banner ("Debugger listening on …", "For help, see: …") is not the service's.
    const lines = String(chunk).split('\n').filter((l) => l.trim() !== '' && !/^(Debugger listening|Debugger attached|For help, see)/.test(l));
    for (const line of lines) log.errors.push(line.slice(0, 500));
  });
  child.once('exit', (code, signal) => {
    if (!log.stopping) {
      console.error(`${script} exited early (code ${code}, signal ${signal}): ${log.errors.slice(-5).join(' | ')}`);
      process.exit(1);
    }
  });
  return { child, log };
}

async function waitFor(url, ms = 120_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await sleep(250);
  }
  throw new Error(`${url} did not answer`);
}

/** The inspector protocol over its websocket: forced GC and heap usage of the main thread. */
async function inspector(port) {
  const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    async heapAfterGc() {
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      const usage = await call('Runtime.getHeapUsage');
      return usage.usedSize;
    },
    close: () => ws.close(),
  };
}

function processFigures(pid, folder) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fds = readdirSync(`/proc/${pid}/fd`);
  // Descriptors by kind: sockets, database files (under the soak's folder), other files, pipes, …
  const kinds = {};
  for (const fd of fds) {
    let target;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // Closed between the listing and the read.
    }
    const kind = target.startsWith('socket:') ? 'socket'
      : folder && target.startsWith(folder) ? 'database'
        : target.startsWith('/') ? 'file'
          : target.replace(/[:[].*$/, '');
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return { rssMb: rssKb / 1024, fds: fds.length, sockets: kinds.socket ?? 0, kinds };
}

/** One stream client: connects, counts frames, leaves after its lifetime; `stop` ends it early. */
function streamClient(base, paths, stats) {
  let stopped = false;
  let req;
  const run = async () => {
    while (!stopped) {
      const target = paths[Math.floor(Math.random() * paths.length)];
      const lifetime = 10_000 + Math.random() * 110_000;
      await new Promise((resolve) => {
        req = http.get(`${base}${target}`, { headers: { accept: 'text/event-stream' } }, (res) => {
          stats.streamStatus[res.statusCode] = (stats.streamStatus[res.statusCode] ?? 0) + 1;
          res.on('data', (chunk) => (stats.frames += String(chunk).split('\n\n').length - 1));
          res.on('end', resolve);
          res.on('error', resolve);
        });
        req.on('error', resolve);
        setTimeout(() => {
          req.destroy();
          resolve();
        }, lifetime).unref();
      });
      stats.reconnects++;
      await sleep(100 + Math.random() * 900);
    }
  };
  const done = run();
  return { stop: async () => ((stopped = true), req?.destroy(), await done) };
}

async function restMix(base, stats, isRunning) {
  const email = 'soak@example.com';
  const send = async (method, url, body, type = 'application/json') => {
    const res = await fetch(`${base}${url}`, { method, headers: body ? { 'content-type': type } : {}, body }).catch(() => null);
    const key = res ? res.status : 'failed';
    stats.rest[key] = (stats.rest[key] ?? 0) + 1;
    if (res) await res.arrayBuffer();
    return res;
  };
  const calls = [
    () => send('POST', '/v1/calculators/process', JSON.stringify({ email, ticker: 'BTC-USDT', exchange: 'binance' })),
    () => send('GET', `/v1/lookers?email=${email}`),
    () => send('GET', `/v1/favorite-cryptos?email=${email}`),
    () => send('GET', `/v1/journal/operations?email=${email}&limit=20`),
    () => send('GET', `/v1/journal/summary?email=${email}`),
    () => send('GET', '/v1/funding-rates'),
    () => send('GET', '/health/market'),
    () => send('GET', '/v1/opportunity-history/stats?ticker=BTC-USDT&buy=binance&sell=okx&days=1&threshold=0.1'),
    () => send('POST', '/v1/journal/operations', JSON.stringify({
      email, strategy: 'cross_exchange', asset: 'BTC', buyExchange: 'okx', sellExchange: 'bybit',
      openedAt: new Date().toISOString(), quantity: 1, entryBuyPrice: 100,
    })),
  ];
  await send('POST', '/v1/lookers', JSON.stringify({ email, name: 'soak', cryptos: ['BTC-USDT', 'ETH-USDT'] }));
  await send('POST', '/v1/calculators', JSON.stringify({ email, ticker: 'BTC-USDT', entrySpotValue: 60000, entryShortValue: 60100, entrySpotQty: 0.1, entryFuturesQty: 0.1 }));
  let i = 0;
  while (isRunning()) {
    const started = Date.now();
    await calls[i++ % calls.length]();
    await sleep(Math.max(0, 1000 / RPS - (Date.now() - started)));
  }
}

/** Least-squares slope of `key` (MB) over the samples' minutes, in MB per hour. */
function slopePerHour(samples, key) {
  const n = samples.length;
  if (n < 2) return NaN;
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p[key], 0) / n;
  const num = samples.reduce((s, p) => s + (p.minute - mx) * (p[key] - my), 0);
  const den = samples.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return (num / den) * 60;
}

async function main() {
  const folder = mkdtempSync(path.join(tmpdir(), 'am-soak-'));
  const [simPort, port, inspectPort] = [await freePort(), await freePort(), await freePort()];
  const sim = start('simulator/main.js', { SIM_PORT: String(simPort), SIM_WALK: '1' });
  await waitFor(`http://127.0.0.1:${simPort}/_sim/state`);
  const service = start(
    'main.js',
    {
      PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', ENABLED_WEBSOCKET: process.env.SOAK_FEEDS ?? '1',
      MARKET_SIMULATOR_URL: `http://127.0.0.1:${simPort}`, DB_PATH: path.join(folder, 'db'), SSE_MAX_PER_IP: String(Math.max(10, CLIENTS * 2)),
      ARBITRAGE_RATE_LIMIT: '1000000',
    },
    [...(await serviceNodeFlags(dist)), ...(TRACE_GC ? ['--trace-gc'] : [`--inspect=127.0.0.1:${inspectPort}`]), ...extraNodeArgs],
    process.env.SOAK_SERVICE_LOG,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health`);
  // SOAK_TRACE_GC=1: no inspector session (a debugger attached keeps code V8 would otherwise
  // flush); the heap figure is the live size after the latest full GC V8 ran by itself.
  const cdp = TRACE_GC
    ? { heapAfterGc: async () => service.log.lastMarkCompactMb * 1024 * 1024, close: () => undefined }
    : await inspector(inspectPort);
  // Descriptors and sockets before any client: the end figures must come back to these.
  await sleep(15_000);
  const idle = processFigures(service.child.pid, folder);

  const stats = { frames: 0, reconnects: 0, streamStatus: {}, rest: {} };
  const streams = ['/v1/realtime/prices', '/v1/realtime/arbitrage', '/v1/calculators/stream?email=soak@example.com&ticker=BTC-USDT&exchange=binance'];
  let running = true;
  const rest = restMix(base, stats, () => running);
  await sleep(2_000);
  const lookers = (await (await fetch(`${base}/v1/lookers?email=soak@example.com`)).json());
  const lookerId = Array.isArray(lookers) ? lookers[0]?.id : lookers?.data?.[0]?.id;
  if (lookerId) streams.push(`/v1/lookers/${lookerId}/stream?email=soak@example.com`);
  const clients = Array.from({ length: CLIENTS }, () => streamClient(base, streams, stats));

  const samples = [];
  for (let minute = 1; minute <= MINUTES; minute++) {
    await sleep(60_000);
    const heapMb = (await cdp.heapAfterGc()) / 1024 / 1024;
    const figures = processFigures(service.child.pid, folder);
    const sample = { minute, heapMb: Number(heapMb.toFixed(2)), ...figures, rssMb: Number(figures.rssMb.toFixed(1)), rssByKind: rssByKind(service.child.pid), frames: stats.frames, reconnects: stats.reconnects, errors: service.log.errors.length };
    samples.push(sample);
    console.log(JSON.stringify(sample));
  }
  running = false;
  await Promise.all(clients.map((c) => c.stop()));
  await rest;
  await sleep(5_000);
  const end = processFigures(service.child.pid, folder);
  const endHeapMb = (await cdp.heapAfterGc()) / 1024 / 1024;
  cdp.close();
  const afterWarmup = samples.filter((s) => s.minute >= WARMUP);
  const result = {
    minutes: MINUTES, warmupMinutes: WARMUP, clients: CLIENTS, rps: RPS,
    heapGrowthMbPerHour: Number(slopePerHour(afterWarmup, 'heapMb').toFixed(3)),
    rssGrowthMbPerHour: Number(slopePerHour(afterWarmup, 'rssMb').toFixed(3)),
    heapMbAtWarmup: afterWarmup[0]?.heapMb, heapMbAtEnd: Number(endHeapMb.toFixed(2)),
    rssMbAtWarmup: afterWarmup[0]?.rssMb, rssMbAtEnd: Number(end.rssMb.toFixed(1)),
    // Where the RSS slope comes from: each kind of mapping's own slope after the warm-up.
    rssSlopeByKind: Object.fromEntries(Object.keys(afterWarmup.at(-1)?.rssByKind ?? {}).map((k) => [k, Number(slopePerHour(afterWarmup.map((s) => ({ minute: s.minute, v: s.rssByKind[k] ?? 0 })), 'v').toFixed(3))])),
    fds: { beforeClients: idle.fds, atEndWithoutClients: end.fds, kindsBefore: idle.kinds, kindsAtEnd: end.kinds },
    sockets: { beforeClients: idle.sockets, atEndWithoutClients: end.sockets },
    errorsLogged: service.log.errors.length, firstErrors: service.log.errors.slice(0, 5),
    streamFrames: stats.frames, streamConnections: stats.streamStatus, rest: stats.rest,
  };
  console.log(JSON.stringify(result, null, 2));
  service.log.stopping = sim.log.stopping = true;
  service.child.kill('SIGTERM');
  sim.child.kill('SIGTERM');
  await sleep(2_000);
  rmSync(folder, { recursive: true, force: true });
}

await main();
