// `npm run bench:embedded-wasm`: the embedded engine (PGlite) on V8's default tiers against
// Liftoff only (EMBEDDED_WASM_FLAGS, src/database/pglite-driver.ts, the same three flags). Each round starts a fresh
// process per mode, in turn, on a copy of one initialised folder: it writes 100 batches of 1,000
// market samples to warm up (the optimising compiler's tier-up happens here), then times the CPU
// of 100 more batches and 50 grouped reads (process.cpuUsage, every thread), and reports its RSS.
// BENCH_ROUNDS (3) rounds; medians printed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const pglite = import.meta.resolve('@electric-sql/pglite');
const settings = JSON.stringify(['shared_buffers = 16MB', 'maintenance_work_mem = 16MB']);
const child = `
import v8 from 'node:v8';
import { readFileSync } from 'node:fs';
if (process.argv[2] === 'liftoff') v8.setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering');
const { PGlite } = await import(${JSON.stringify(pglite)});
const db = await PGlite.create(process.argv[1], { postgresqlconf: ${settings} });
await db.exec('create table if not exists s (id bigserial primary key, at timestamptz, exchange text, ticker text, bid numeric, ask numeric)');
const batch = async () => {
  const rows = [];
  for (let i = 0; i < 1000; i++) rows.push(\`(now(), 'binance', 'BX\${i % 302}-USDT', \${(i * 7.31) % 100}, \${(i * 3.17) % 100})\`);
  await db.exec(\`insert into s (at, exchange, ticker, bid, ask) values \${rows.join(',')}\`);
};
for (let b = 0; b < 100; b++) await batch();
const c0 = process.cpuUsage();
for (let b = 0; b < 100; b++) await batch();
for (let q = 0; q < 50; q++) await db.query(\`select ticker, avg(bid) from s where ticker = 'BX\${q}-USDT' group by ticker\`);
const c = process.cpuUsage(c0);
const rss = Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
await db.close();
console.log(JSON.stringify({ cpuMs: (c.user + c.system) / 1000, rssMb: rss }));
`;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-wasm-'));
const base = path.join(scratch, 'base');
execFileSync(process.execPath, ['--input-type=module', '-e', `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1], { postgresqlconf: ${settings} }); await db.close();`, base]);
const results = { default: [], liftoff: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of ['default', 'liftoff']) {
      const dir = path.join(scratch, `${mode}-${r}`);
      cpSync(base, dir, { recursive: true });
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', child, dir, mode], { encoding: 'utf8' });
      results[mode].push(JSON.parse(out.trim().split('\n').at(-1)));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`machine: ${os.cpus()[0]?.model.trim()} x${os.cpus().length}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const mode of ['default', 'liftoff']) {
  const rows = results[mode];
  console.log(`${mode.padEnd(8)} CPU for 100,000 rows and 50 reads: ${median(rows.map((x) => x.cpuMs)).toFixed(0)} ms (${rows.map((x) => x.cpuMs.toFixed(0)).join(', ')}); RSS ${median(rows.map((x) => x.rssMb)).toFixed(0)} MB (${rows.map((x) => x.rssMb.toFixed(0)).join(', ')})`);
}
console.log(`Liftoff only / default: CPU ${(median(results.liftoff.map((x) => x.cpuMs)) / median(results.default.map((x) => x.cpuMs))).toFixed(2)}, RSS ${(median(results.liftoff.map((x) => x.rssMb)) - median(results.default.map((x) => x.rssMb))).toFixed(0)} MB`);
