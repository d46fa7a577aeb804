// The tick relay between real processes, for `npm run bench:redis-relay`: the simulator, one
// ROLE=ingest and one ROLE=api service (built), joined by Redis, at the simulator's default
// cadence over BENCH_BASES bases (302: 3,020 markets). Over a BENCH_SECONDS window it reads:
//  - the API instance's CPU (all its threads, /proc) per quote its book applied (market_ticks_total);
//  - the ingest process's CPU per quote its workers received;
//  - ingest -> API latency: a subscriber of the bench's own on the ticks channel decodes every
//    batch as an API instance does and takes its arrival time minus each entry's receive time in
//    the ingest worker (same machine clock); the API instance receives the same message then;
//  - Redis messages/s and bytes/s per subscriber.
// `runPair(dist)` runs one pair from a service build (dist/ or another commit's), so a baseline
// build and this one can be measured back to back against the same simulator.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import { serviceNodeFlags } from './service-flags.mjs';

const STRIDE = 7;
const CLK_TCK = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

export function spawnNode(script, env, readyText, execArgv = []) {
  const child = spawn(process.execPath, [...execArgv, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (readyText && String(d).includes(readyText)) resolve(child);
    });
    child.once('exit', (code, signal) => {
      // After it started too: a child that dies mid-run says why.
      if (code || (signal && signal !== 'SIGTERM')) console.error(`${script} exited ${code ?? signal}: ${output.slice(-2000)}`);
      reject(new Error(`${script} exited ${code}: ${output.slice(-2000)}`));
    });
    if (!readyText) resolve(child);
  });
}

/** utime+stime of every thread of the process, in CPU seconds. */
function cpuSeconds(pid) {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(f[11]) + Number(f[12])) / CLK_TCK;
    } catch {
      // a thread that ended between readdir and read
    }
  }
  return total;
}

async function counter(url, name) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
}

/** The built service on a free port (LOG_LEVEL warn) with the production node flags, once its /health answers. */
export async function startService(dist, env) {
  const port = await freePort();
  const child = await spawnNode(path.join(dist, 'main.js'), { PORT: String(port), LOG_LEVEL: 'warn', ...env }, undefined, await serviceNodeFlags(dist));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('service did not start');
}

/** Until every exchange is connected and they hold `markets` markets in all. */
export async function waitMarkets(url, markets) {
  for (let i = 0; i < 1200; i++) {
    const body = await (await fetch(`${url}/health/market`)).json();
    const h = Object.values(body.exchanges);
    if (h.every((e) => e.connected) && h.reduce((n, e) => n + e.markets, 0) >= markets) return;
    await sleep(100);
  }
  throw new Error('feeds did not come up');
}

/** One ingest + API pair from `dist`, measured over `seconds` after `warmupS`. */
export async function runPair({ dist, simUrl, markets, redisUrl, pgAdmin, seconds, warmupS }) {
  const name = `bench_relay_${process.pid}_${Date.now()}`;
  execFileSync('psql', [pgAdmin, '-qc', `CREATE DATABASE ${name}`]);
  const prefix = `bench:${name}:`;
  const shared = { DATABASE_URL: pgAdmin.replace(/\/[^/]*$/, `/${name}`), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, MAX_SYMBOLS: String(markets / 10), CROSSING_JOB_ENABLED: '0' };
  const sub = new Redis(redisUrl);
  const latencies = [];
  const wire = { messages: 0, bytes: 0, counting: false };
  sub.on('messageBuffer', (_c, message) => {
    if (!wire.counting) return;
    const now = performance.timeOrigin + performance.now();
    wire.messages++;
    wire.bytes += message.byteLength;
    const all = new Float64Array(message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength));
    for (let o = 1; o + STRIDE <= all.length; o += STRIDE) latencies.push(now - all[o + STRIDE - 1]);
  });
  await sub.subscribe(`${prefix}ticks`);
  let ingest;
  let api;
  try {
    ingest = await startService(dist, { ...shared, ROLE: 'ingest', ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: simUrl });
    api = await startService(dist, { ...shared, ROLE: 'api' });
    await waitMarkets(api.url, markets);
    await sleep(warmupS * 1000);
    const read = async () => ({
      t: Date.now(),
      apiCpu: cpuSeconds(api.child.pid),
      ingestCpu: cpuSeconds(ingest.child.pid),
      applied: await counter(api.url, 'market_ticks_total'),
      received: await counter(ingest.url, 'market_ingest_received_total'),
    });
    const a = await read();
    wire.counting = true;
    await sleep(seconds * 1000);
    wire.counting = false;
    const b = await read();
    const wall = (b.t - a.t) / 1000;
    latencies.sort((x, y) => x - y);
    return {
      quotesPerS: Math.round((b.received - a.received) / wall),
      apiAppliedPerS: Math.round((b.applied - a.applied) / wall),
      apiCpuPct: +((100 * (b.apiCpu - a.apiCpu)) / wall).toFixed(1),
      apiUsPerQuote: +((1e6 * (b.apiCpu - a.apiCpu)) / (b.applied - a.applied)).toFixed(2),
      ingestCpuPct: +((100 * (b.ingestCpu - a.ingestCpu)) / wall).toFixed(1),
      ingestUsPerQuote: +((1e6 * (b.ingestCpu - a.ingestCpu)) / (b.received - a.received)).toFixed(2),
      messagesPerS: Math.round(wire.messages / wall),
      kbPerS: Math.round(wire.bytes / wall / 1024),
      p50ms: +percentile(latencies, 50).toFixed(2),
      p99ms: +percentile(latencies, 99).toFixed(2),
    };
  } finally {
    api?.child.kill('SIGTERM');
    ingest?.child.kill('SIGTERM');
    sub.disconnect();
    await sleep(2000);
    execFileSync('psql', [pgAdmin, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
  }
}
