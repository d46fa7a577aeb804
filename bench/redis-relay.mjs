// `npm run bench:redis-relay`: the Redis traffic and the added latency of the tick
// relay between an ingest process and an API instance, at 3,020 markets (the default 300-symbol
// universe on five exchanges). Quotes are generated at a fixed rate, spread over the markets, and
// go through the service's own path: the batch accumulator (conflation, <= 5 ms), the wire
// encoding and PUBLISH on one connection; a second connection SUBSCRIBEs and decodes, as an API
// instance does. Latency is quote receive time -> decoded on the API side (same machine clock);
// in one process (ROLE=all) the quote reaches the book without this hop, so this is what it adds.
// Rates: BENCH_RATES (quotes/s, comma list; default 9000,33000, the issue-16 cadences), BENCH_SECONDS.
// Runs against the compiled service (`npm run build`, or BENCH_DIST=<outDir>); needs Redis (REDIS_URL).
// Then, unless BENCH_PAIRS=0, the relay between real processes (bench/relay-pair.mjs): simulator,
// ROLE=ingest and ROLE=api at BENCH_BASES bases; with BENCH_BASELINE_DIST=<another build's dist>,
// that build and this one alternate BENCH_PAIR_ROUNDS times (default 2) against the same simulator.
// Needs PostgreSQL (BENCH_PG_ADMIN, default postgres://postgres@127.0.0.1:5432/postgres).
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { freePort, runPair, spawnNode } from './relay-pair.mjs';

const dist = path.resolve(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { TickAccumulator, DEFAULT_BATCH_POLICY, forEachTick } = await load('market-data/ingest/tick-batch.js');
const { encodeBatch, decodeBatch } = await load('scale-out/tick-codec.js');

const MARKETS = 3020;
const RATES = (process.env.BENCH_RATES ?? '9000,33000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const channel = `bench:${process.pid}:ticks`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(rate) {
  const pub = new Redis(url);
  const sub = new Redis(url);
  const latencies = [];
  let received = 0;
  sub.on('messageBuffer', (_c, message) => {
    const now = performance.timeOrigin + performance.now();
    const decoded = decodeBatch(message);
    forEachTick(decoded.batch, (_i, _b, _a, _bq, _aq, _t, receivedAt) => {
      received++;
      latencies.push(now - receivedAt);
    });
  });
  await sub.subscribe(channel);
  const sent = { messages: 0, bytes: 0 };
  const acc = new TickAccumulator(5, (batch) => {
    const message = encodeBatch(1, batch);
    sent.messages++;
    sent.bytes += message.byteLength;
    void pub.publish(channel, message);
  }, DEFAULT_BATCH_POLICY);
  for (let e = 0; e < 5; e++) acc.addMarkets(Array.from({ length: MARKETS / 5 }, (_, i) => e * (MARKETS / 5) + i), e);
  // Quotes arrive in 1 ms slices at the target rate, on random markets (as many feeds interleave).
  let quotes = 0;
  const redisCpu = async () => {
    const info = await pub.info('cpu');
    const read = (k) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return read('used_cpu_user') + read('used_cpu_sys');
  };
  const redis0 = await redisCpu();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = performance.timeOrigin + performance.now();
      // Quotes due by now at the target rate, whatever the timer's actual cadence.
      const due = Math.floor((rate * (Date.now() - t0)) / 1000);
      for (; quotes < due; ) {
        const m = Math.floor(Math.random() * MARKETS);
        acc.quote(m, 100, 100.01, 1, 1, now, now);
        quotes += 1;
      }
      if (Date.now() - t0 >= SECONDS * 1000) {
        clearInterval(timer);
        acc.flush();
        resolve();
      }
    }, 1);
  });
  const seconds = (Date.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  const cpu = process.cpuUsage(cpu0);
  const redisCores = (await redisCpu() - redis0) / seconds;
  latencies.sort((a, b) => a - b);
  pub.disconnect();
  sub.disconnect();
  return {
    rate,
    quotesPerS: Math.round(quotes / seconds),
    messagesPerS: Math.round(sent.messages / seconds),
    kbPerS: Math.round(sent.bytes / seconds / 1024),
    marketsPerMessage: +(sent.bytes / sent.messages / 56).toFixed(1),
    conflatedPct: +(100 * (1 - received / quotes)).toFixed(1),
    p50ms: +percentile(latencies, 50).toFixed(2),
    p99ms: +percentile(latencies, 99).toFixed(2),
    // Cores: Redis server; this process (quote generation + accumulator + publish + subscribe + decode).
    redisCores: +redisCores.toFixed(3),
    benchCores: +((cpu.user + cpu.system) / 1e6 / seconds).toFixed(3),
  };
}

const load1 = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}, node ${process.version}, load average ${load1()}`);
for (const rate of RATES) console.log(JSON.stringify(await run(rate)));

async function pairs() {
  const bases = Number(process.env.BENCH_BASES ?? 302);
  const simPort = await freePort();
  const sim = await spawnNode(path.join(dist, 'simulator/main.js'), { SIM_PORT: String(simPort), SIM_SYMBOLS: Array.from({ length: bases }, (_, i) => `BX${i}`).join(','), SIM_WALK: '1' }, 'listening');
  const builds = process.env.BENCH_BASELINE_DIST ? [['baseline', path.resolve(process.env.BENCH_BASELINE_DIST)], ['this build', dist]] : [['this build', dist]];
  const options = {
    simUrl: `http://127.0.0.1:${simPort}`,
    markets: bases * 10,
    redisUrl: url,
    pgAdmin: process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    seconds: Number(process.env.BENCH_PAIR_SECONDS ?? 30),
    warmupS: 10,
  };
  try {
    for (let round = 1; round <= Number(process.env.BENCH_PAIR_ROUNDS ?? 2); round++) {
      for (const [label, from] of builds) {
        const result = await runPair({ ...options, dist: from });
        console.log(JSON.stringify({ pair: label, round, markets: bases * 10, ...result, load: load1() }));
      }
    }
  } finally {
    sim.kill('SIGTERM');
  }
}

if (process.env.BENCH_PAIRS !== '0') await pairs();
process.exit(0);
