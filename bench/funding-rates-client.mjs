// Client side of `npm run bench:funding`, in its own process so the service's event loop holds
// only the service. Protocol (IPC): parent sends { url, concurrency, durationMs }; the child
// keeps `concurrency` requests in flight on keep-alive sockets for that long and answers
// { latencies: number[] (ms), errors, statuses }.
import http from 'node:http';

process.on('message', async ({ url, concurrency, durationMs }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const statuses = {};
  let errors = 0;
  const end = performance.now() + durationMs;
  const one = () => new Promise((resolve) => {
    const started = performance.now();
    http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - started);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        resolve();
      });
    }).on('error', () => {
      errors++;
      resolve();
    });
  });
  const worker = async () => {
    while (performance.now() < end) await one();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  process.send({ latencies, errors, statuses }, () => process.exit(0));
});
