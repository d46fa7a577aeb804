// Probes GET <baseUrl>/health every <intervalMs> from its own process, on a fixed schedule that
// does not wait for earlier answers (open loop): a server that freezes for 2 s leaves every probe
// sent meanwhile waiting, as a real monitor would see it, instead of one slow sample.
// The probes reuse connections opened before the load (keep-alive): a NEW connection waits in
// the kernel's accept queue behind every connection that arrived before it, and Node (libuv
// 1.45+) accepts one connection per listening socket per turn of the event loop, so behind a
// burst of 550 connections it waits 550 turns however short each turn is. That is the accept
// queue's cost, not the event loop's; the bound is about the loop.
// Prints `ready` once its connections are open; stops at the line `stop` on stdin, prints
// `{"latencies":[ms...],"statuses":[...]}` and exits.
import http from 'node:http';

const [baseUrl, intervalArg] = process.argv.slice(2);
const intervalMs = Number(intervalArg ?? 10);
const CONNECTIONS = 32;
// fifo: every connection is used in turn, so none idles past the server's keep-alive timeout.
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, scheduling: 'fifo' });
const latencies = [];
const statuses = new Set();
const inFlight = new Set();

function probe() {
  const started = performance.now();
  const done = new Promise((resolve) => {
    const req = http.get(`${baseUrl}/health`, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        statuses.add(res.statusCode);
        latencies.push(performance.now() - started);
        resolve();
      });
    });
    req.on('error', () => {
      statuses.add(0);
      resolve();
    });
  });
  inFlight.add(done);
  void done.then(() => inFlight.delete(done));
}

function once() {
  return new Promise((resolve) => http.get(`${baseUrl}/health`, { agent }, (res) => res.resume().on('end', resolve)).on('error', resolve));
}

await Promise.all(Array.from({ length: CONNECTIONS }, once));
process.stdout.write('ready\n');
const timer = setInterval(probe, intervalMs);
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (text) => {
  if (!text.includes('stop')) return;
  clearInterval(timer);
  await Promise.all(inFlight);
  process.stdout.write(`${JSON.stringify({ latencies, statuses: [...statuses] })}\n`);
  agent.destroy();
  process.exit(0);
});
