// `npm run bench:sse`: the price snapshot fan-out, shared frames vs naive per-client
// serialisation, at several client counts. Server and clients are separate processes; the
// server's CPU is measured over the window after a warm-up. Prints a Markdown table.
import { fork } from 'node:child_process';
import os from 'node:os';

const COUNTS = (process.env.BENCH_CLIENTS ?? '50,500,2000').split(',').map(Number);
const MODES = (process.env.BENCH_MODES ?? 'shared,naive').split(',');
const WARMUP_MS = 3000;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const STALLED = 5;
// Clients are spread over several processes so that reading ~0.5 GB/s is not one process's limit.
const CLIENT_PROCS = Number(process.env.BENCH_CLIENT_PROCS ?? 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
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

const share = (n, i) => Math.floor(n / CLIENT_PROCS) + (i < n % CLIENT_PROCS ? 1 : 0);

async function run(mode, n) {
  const server = fork(new URL('./sse-fanout-server.mjs', import.meta.url), [mode]);
  const { port } = await new Promise((r) => server.once('message', r));
  const url = `http://127.0.0.1:${port}/v1/realtime/prices`;
  const clients = Array.from({ length: CLIENT_PROCS }, () => fork(new URL('./sse-fanout-clients.mjs', import.meta.url)));
  await Promise.all(
    clients.map((c, i) =>
      ask(c, { type: 'open', url, n: share(n, i), stalled: i === 0 ? STALLED : 0 }, 'open'),
    ),
  );
  await sleep(WARMUP_MS);
  clients.forEach((c) => c.send({ type: 'mark' }));
  const before = await ask(server, { type: 'stats' }, 'stats');
  const t0 = Date.now();
  await sleep(WINDOW_MS);
  const after = await ask(server, { type: 'stats' }, 'stats');
  const reports = await Promise.all(clients.map((c) => ask(c, { type: 'report' }, 'report')));
  const wall = (Date.now() - t0) / 1000;
  server.kill();
  clients.forEach((c) => c.kill());
  return {
    mode,
    n,
    cpu: (after.cpuSeconds - before.cpuSeconds) / wall,
    rssMb: after.rssMb,
    maxBuffered: after.maxBuffered,
    rateMin: Math.min(...reports.map((r) => r.rateMin)),
    rateP50: reports.reduce((a, r) => a + r.rateP50, 0) / reports.length,
    delivered: reports.reduce((a, r) => a + r.delivered, 0),
    lagP50: Math.max(...reports.map((r) => r.lagP50 ?? 0)),
    lagP99: Math.max(...reports.map((r) => r.lagP99 ?? 0)),
  };
}

console.log(`node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model}, window ${WINDOW_MS} ms, ${STALLED} stalled clients per run, clients in ${CLIENT_PROCS} processes`);
console.log('| mode | clients | server CPU (1 core = 1.00) | RSS MB | slowest client Hz | median Hz (mean of per-process medians) | frames/s delivered | lag p50 ms (worst process) | lag p99 ms (worst process) | largest per-client buffer KB |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const n of COUNTS) {
  for (const mode of MODES) {
    const r = await run(mode, n);
    console.log(
      `| ${r.mode} | ${r.n} | ${r.cpu.toFixed(2)} | ${r.rssMb.toFixed(0)} | ${r.rateMin.toFixed(2)} | ${r.rateP50.toFixed(2)} | ${r.delivered.toFixed(0)} | ${r.lagP50 ?? '-'} | ${r.lagP99 ?? '-'} | ${(r.maxBuffered / 1024).toFixed(0)} |`,
    );
  }
}
