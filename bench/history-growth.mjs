// `npm run bench:history`: how fast the opportunity history grows at 3,020 markets (302 bases on
// five exchanges, both markets, the simulator's walk on), the recorder at its defaults
// (HISTORY_INTERVAL_MS 10 s, HISTORY_MIN_SPREAD_PERCENT 0, stream debounce 200 ms), on PostgreSQL
// and on the embedded database in a folder. The built service runs BENCH_SECONDS (default 300);
// rows recorded after BENCH_WARMUP_SECONDS (default 60) are counted and extrapolated to a day.
// Bytes per row = the table with its index (pg_total_relation_size) ÷ its rows, read after the
// service stopped (the embedded folder is opened by the bench then). Rows are split by kind:
// a heartbeat round stamps every route with one time, so a time shared by several routes is a
// round's; the others are the stream's events and closing spreads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnNode, startService } from './relay-pair.mjs';

const dist = path.resolve(new URL('../dist', import.meta.url).pathname);
const BASES = Number(process.env.BENCH_BASES ?? 302);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 60);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,folder').split(',');
const PG = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_S = 86_400;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const FIGURES_SQL = (since) => `
  WITH t AS (SELECT time, count(*) OVER (PARTITION BY time) AS at_once FROM opportunity_history WHERE time >= '${since}')
  SELECT (SELECT count(*) FROM opportunity_history)::float8 AS total,
         (SELECT count(*) FROM t)::float8 AS counted,
         (SELECT count(*) FROM t WHERE at_once > 1)::float8 AS heartbeat,
         pg_total_relation_size('opportunity_history')::float8 AS bytes,
         (SELECT count(DISTINCT (ticker, buy_exchange, sell_exchange)) FROM opportunity_history)::float8 AS routes`;

async function figuresOf(engine, db, since) {
  if (engine === 'postgres') {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: db.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(FIGURES_SQL(since))).rows[0];
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const lite = new PGlite(db.DB_PATH);
  try {
    return (await lite.query(FIGURES_SQL(since))).rows[0];
  } finally {
    await lite.close();
  }
}

async function run(engine, simUrl) {
  const scratch = engine === 'folder' ? mkdtempSync(path.join(os.tmpdir(), 'bench-history-')) : null;
  const dbName = `bench_history_${process.pid}_${Date.now()}`;
  const db = engine === 'folder' ? { DB_PATH: path.join(scratch, 'pglite') } : { DATABASE_URL: PG.replace(/\/[^/]*$/, `/${dbName}`) };
  if (engine === 'postgres') execFileSync('psql', [PG, '-qc', `CREATE DATABASE ${dbName}`]);
  try {
    const { child, url } = await startService(dist, { ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: simUrl, MAX_SYMBOLS: String(BASES), ...db });
    let since;
    let held = 0;
    try {
      await sleep(WARMUP * 1000); // the warm-up: feeds connect and the walk spreads out
      since = new Date().toISOString();
      await sleep((SECONDS - WARMUP) * 1000); // the counted span
      const markets = await (await fetch(`${url}/health/market`)).json();
      held = Object.values(markets.exchanges).reduce((n, e) => n + e.markets, 0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    const f = await figuresOf(engine, db, since);
    const span = SECONDS - WARMUP;
    const perDay = (rows) => (rows / span) * DAY_S;
    const bytesPerRow = f.bytes / f.total;
    return {
      engine, held, routes: f.routes, span,
      rowsPerDay: perDay(f.counted), heartbeatPerDay: perDay(f.heartbeat), shownPerDay: perDay(f.counted - f.heartbeat),
      bytesPerRow, mbPerDay: (perDay(f.counted) * bytesPerRow) / 1e6,
    };
  } finally {
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
  console.log('| database | markets held | routes recorded | counted span | rows/day: all (stream, heartbeat) | bytes/row with index | growth/day |');
  console.log('|---|---|---|---|---|---|---|');
  const k = (n) => `${Math.round(n / 1000).toLocaleString('en-US')} k`;
  for (const engine of ENGINES) {
    const r = await run(engine, `http://127.0.0.1:${simPort}`);
    console.log(`| ${r.engine} | ${r.held} | ${r.routes} | ${r.span} s | ${k(r.rowsPerDay)} (${k(r.shownPerDay)}, ${k(r.heartbeatPerDay)}) | ${Math.round(r.bytesPerRow)} | ${r.mbPerDay.toFixed(1)} MB |`);
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  sim.kill('SIGTERM');
}
