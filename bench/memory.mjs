// `npm run bench:memory`: the service's RSS at 3,020 markets (302 bases on five exchanges, both
// markets, the simulator's walk on, the sample and history recorders at their defaults), for
// each database the service can run on: the embedded database in a folder (the default),
// `DB_PATH=:memory:`, and PostgreSQL. RSS is the whole process (every thread, WASM memory
// included), read from /proc/<pid>/status every 5 s; the table gives it at fixed times and
// its peak, and the CPU of the process and of its serving thread from 60 s to the end
// (/proc/<pid>/stat and task/<pid>/stat). BENCH_ENGINES picks engines (folder,memory,postgres),
// BENCH_SECONDS the run (default 180), BENCH_BASES the universe (default 302).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnNode, startService } from './relay-pair.mjs';

// BENCH_DIST: another build's dist/ (an A/B of two builds side by side).
const dist = path.resolve(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname);
const BASES = Number(process.env.BENCH_BASES ?? 302);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 180);
const ENGINES = (process.env.BENCH_ENGINES ?? 'folder,memory,postgres').split(',');
const PG = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MARKS = [30, 60, 120, 180, 300, 600, 1800, 3600].filter((s) => s <= SECONDS);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of the whole process and of its serving (main) thread, from /proc. */
function cpuSeconds(pid) {
  const ticks = (stat) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  return { total: ticks(readFileSync(`/proc/${pid}/stat`, 'utf8')), serving: ticks(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')) };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function run(engine, simUrl) {
  const scratch = engine === 'folder' ? mkdtempSync(path.join(os.tmpdir(), 'bench-memory-')) : null;
  const dbName = `bench_memory_${process.pid}_${Date.now()}`;
  const db =
    engine === 'folder' ? { DB_PATH: path.join(scratch, 'pglite') }
    : engine === 'memory' ? { DB_PATH: ':memory:' }
    : { DATABASE_URL: PG.replace(/\/[^/]*$/, `/${dbName}`) };
  if (engine === 'postgres') execFileSync('psql', [PG, '-qc', `CREATE DATABASE ${dbName}`]);
  const { child, url } = await startService(dist, { ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: simUrl, MAX_SYMBOLS: String(BASES), ...db });
  try {
    const started = Date.now();
    const samples = [];
    let cpuFrom = null;
    while (Date.now() - started < SECONDS * 1000) {
      samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(child.pid) });
      if (cpuFrom === null && Date.now() - started >= 60_000) cpuFrom = { at: Date.now(), ...cpuSeconds(child.pid) };
      await sleep(5000); // the sampling interval
    }
    const cpuTo = { at: Date.now(), ...cpuSeconds(child.pid) };
    const wall = cpuFrom ? (cpuTo.at - cpuFrom.at) / 1000 : NaN;
    const cpu = { total: cpuFrom ? (cpuTo.total - cpuFrom.total) / wall : NaN, serving: cpuFrom ? (cpuTo.serving - cpuFrom.serving) / wall : NaN };
    const at = (s) => samples.filter((x) => x.at <= s).at(-1)?.rss ?? NaN;
    const markets = await (await fetch(`${url}/health/market`)).json();
    const held = Object.values(markets.exchanges).reduce((n, e) => n + e.markets, 0);
    return { engine, held, marks: MARKS.map((s) => at(s)), peak: Math.max(...samples.map((x) => x.rss)), cpu };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (engine === 'postgres') execFileSync('psql', [PG, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
  }
}

const simPort = await freePort();
const sim = await spawnNode(path.join(dist, 'simulator/main.js'), {
  SIM_PORT: String(simPort), SIM_SYMBOLS: Array.from({ length: BASES }, (_, i) => `BX${i}`).join(','), SIM_WALK: '1',
}, 'listening');
try {
  console.log(`machine: ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`| database | markets held | ${MARKS.map((s) => `RSS at ${s} s`).join(' | ')} | peak | CPU from 60 s, % of a core: service / serving thread |`);
  console.log(`|---|---|${MARKS.map(() => '---|').join('')}---|---|`);
  for (const engine of ENGINES) {
    const r = await run(engine, `http://127.0.0.1:${simPort}`);
    console.log(`| ${r.engine} | ${r.held} | ${r.marks.map((m) => `${Math.round(m)} MB`).join(' | ')} | ${Math.round(r.peak)} MB | ${(r.cpu.total * 100).toFixed(1)} / ${(r.cpu.serving * 100).toFixed(1)} |`);
  }
} finally {
  sim.kill('SIGTERM');
}
