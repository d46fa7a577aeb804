// Client side of `npm run bench:lookers`, in its own process so the service's CPU figure holds
// only the service. Opens one SSE connection per looker id it is given and counts what arrives.
// Protocol (IPC): parent sends { baseUrl, ids }; child answers { type: 'connected' } once every
// stream has its first event, then on { type: 'mark' } replies { type: 'counts', ... }.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const clients = [];
let events = 0;
let chunks = 0;
let errors = 0;
let retries = 0;
let lastError = '';
let stopping = false;
let gaps = [];

function open(baseUrl, id, client = { firstAt: 0, lastAt: 0, events: 0 }) {
  if (!clients.includes(client)) clients.push(client);
  // A refused or reset connection while thousands open at once is retried: the figure measured
  // is the steady state of 2,000 open streams, not the accept queue.
  const retry = (why) => {
    retries++;
    lastError = why;
    setTimeout(() => open(baseUrl, id, client), 500);
  };
  const req = http.get(`${baseUrl}/v1/lookers/${id}/stream`, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      return retry(`status ${res.statusCode}`);
    }
    res.setEncoding('utf8');
    res.on('data', (text) => {
      const n = text.split('data: ').length - 1;
      if (n === 0) return;
      const now = Date.now();
      if (client.lastAt) gaps.push(now - client.lastAt);
      client.firstAt ||= now;
      client.lastAt = now;
      client.events += n;
      events += n;
      chunks++;
    });
    res.on('close', () => {
      if (!stopping) errors++;
    });
  });
  req.on('error', (err) => (client.events === 0 ? retry(err.message) : errors++));
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;

process.on('message', (msg) => {
  if (msg.type === 'open') {
    const { baseUrl, ids } = msg;
    let i = 0;
    // Open in small batches so the accept queue is never the bottleneck being measured.
    const timer = setInterval(() => {
      for (const id of ids.slice(i, i + 25)) open(baseUrl, id);
      i += 25;
      if (i >= ids.length) clearInterval(timer);
    }, 100);
    const wait = setInterval(() => {
      const live = clients.filter((c) => c.events > 0).length;
      if (Date.now() % 5000 < 50) console.log(`clients: ${clients.length} opened, ${live} receiving, ${retries} retries (${lastError}), ${errors} errors`);
      if (clients.length === ids.length && live === ids.length) {
        clearInterval(wait);
        process.send({ type: 'connected', errors, retries });
      }
    }, 50);
  } else if (msg.type === 'mark') {
    const sorted = gaps.sort((a, b) => a - b);
    const cpu = process.cpuUsage();
    process.send({
      type: 'counts', events, chunks, errors, retries,
      gapP50: quantile(sorted, 0.5), gapP99: quantile(sorted, 0.99), gapMax: sorted.at(-1) ?? null,
      silentClients: clients.filter((c) => Date.now() - c.lastAt > 3000).length,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    });
    gaps = [];
  } else if (msg.type === 'exit') {
    stopping = true;
    process.exit(0);
  }
});
