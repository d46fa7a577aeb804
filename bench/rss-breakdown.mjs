// `npm run bench:rss-breakdown`: where the service's RSS goes. Starts the simulator (BENCH_BASES
// bases on five exchanges, both markets, walk on) and the service on BENCH_ENGINE (postgres, the
// default, or folder: the embedded database in a folder) as bench/memory.mjs does, waits
// BENCH_SECONDS (240), then reads /proc/<pid>/smaps and sums the resident memory by kind of
// mapping (bench/smaps.mjs: V8 heap pages, the node binary, the main thread's malloc heap, the
// embedded engine's WebAssembly memory, the threads' malloc arenas, files). Prints the largest
// mappings and the service's heap figures from /metrics beside.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnNode, startService } from './relay-pair.mjs';
import { kindOf, mappings } from './smaps.mjs';

const dist = path.resolve(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname);
const BASES = Number(process.env.BENCH_BASES ?? 302);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 240);
const ENGINE = process.env.BENCH_ENGINE ?? 'postgres';
const PG = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const simPort = await freePort();
const sim = await spawnNode(path.join(dist, 'simulator/main.js'), {
  SIM_PORT: String(simPort), SIM_SYMBOLS: Array.from({ length: BASES }, (_, i) => `BX${i}`).join(','), SIM_WALK: '1',
}, 'listening');
const dbName = `bench_rss_${process.pid}`;
const scratch = ENGINE === 'folder' ? mkdtempSync(path.join(os.tmpdir(), 'bench-rss-')) : null;
if (!scratch) execFileSync('psql', [PG, '-qc', `CREATE DATABASE ${dbName}`]);
const { child, url } = await startService(dist, {
  ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: `http://127.0.0.1:${simPort}`, MAX_SYMBOLS: String(BASES),
  ...(scratch ? { DB_PATH: path.join(scratch, 'db') } : { DATABASE_URL: PG.replace(/\/[^/]*$/, `/${dbName}`) }),
});
try {
  await sleep(SECONDS * 1000);
  const maps = mappings(child.pid);
  const total = maps.reduce((n, m) => n + m.rssMb, 0);
  const byKind = new Map();
  for (const m of maps) byKind.set(kindOf(m), (byKind.get(kindOf(m)) ?? 0) + m.rssMb);
  console.log(`machine: ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`${ENGINE}, ${BASES * 10} markets, ${SECONDS} s after the service answered: RSS ${total.toFixed(1)} MB`);
  for (const [kind, mb] of [...byKind].sort((a, b) => b[1] - a[1]).filter(([, mb]) => mb >= 0.1)) console.log(`  ${kind}: ${mb.toFixed(1)} MB`);
  console.log('largest mappings (resident of size):');
  for (const m of maps.sort((a, b) => b.rssMb - a.rssMb).slice(0, 8)) console.log(`  ${m.rssMb.toFixed(1)} of ${m.sizeMb.toFixed(1)} MB ${m.perm} ${m.name}`);
  const text = await (await fetch(`${url}/metrics`)).text();
  const figure = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1e6;
  const space = (name, kind) => Number(new RegExp(`^${name}\\{space="${kind}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1e6;
  console.log(`serving heap used ${figure('nodejs_heap_size_used_bytes').toFixed(1)} MB of ${figure('nodejs_heap_size_total_bytes').toFixed(1)} (new space ${space('nodejs_heap_space_size_used_bytes', 'new').toFixed(1)} of ${space('nodejs_heap_space_size_total_bytes', 'new').toFixed(1)}), external ${figure('nodejs_external_memory_bytes').toFixed(1)} MB; ingest worker heap used ${figure('market_ingest_worker_heap_bytes').toFixed(1)} MB`);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  sim.kill('SIGTERM');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  else execFileSync('psql', [PG, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
}
process.exit(0);
