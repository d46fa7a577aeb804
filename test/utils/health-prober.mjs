// Probes GET <baseUrl>/health every <intervalMs> from its own process, on a fixed schedule that
// does not wait for earlier answers (open loop): a server that freezes for 2 s leaves every probe
// sent meanwhile waiting, as a real monitor would see it, instead of one slow sample.
// Stops at the line `stop` on stdin; prints `{"latencies":[ms...],"statuses":[...]}` and exits.
import http from 'node:http';

const [baseUrl, intervalArg] = process.argv.slice(2);
const intervalMs = Number(intervalArg ?? 10);
const latencies = [];
const statuses = new Set();
const inFlight = new Set();

function probe() {
  const started = performance.now();
  const done = new Promise((resolve) => {
    const req = http.get(`${baseUrl}/health`, { agent: false }, (res) => {
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

const timer = setInterval(probe, intervalMs);
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (text) => {
  if (!text.includes('stop')) return;
  clearInterval(timer);
  await Promise.all(inFlight);
  process.stdout.write(`${JSON.stringify({ latencies, statuses: [...statuses] })}\n`);
  process.exit(0);
});
