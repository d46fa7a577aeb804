// Client side of `npm run bench:sse`: N SSE connections (plus S that never read) in one process.
// Counts complete frames per client and the lag between a frame's arrival and the sentinel
// quote's updatedAt inside it (quotes are refreshed every 100 ms, so lag is overstated by up
// to 100 ms). IPC: { type: 'open', url, n, stalled } → { type: 'open' }; { type: 'mark' } →
// resets counters; { type: 'report' } → per-client rates and lag percentiles.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const SEP = Buffer.from('\n\n');
const UPDATED = /"updatedAt":"([^"]+)"/;
let clients = [];
let lags = [];
let markAt = Date.now();

function open(url) {
  const c = { frames: 0, pending: 0, head: '' };
  clients.push(c);
  http.get(url, { agent }, (res) => {
    res.on('data', (chunk) => {
      if (c.pending === 0 && c.head.length < 400) c.head += chunk.subarray(0, 400).toString('latin1');
      let at = chunk.indexOf(SEP);
      while (at !== -1) {
        // A comment (`: ping`) is a heartbeat, not a frame of the stream.
        if (!c.head.startsWith(':')) c.frames++;
        const m = UPDATED.exec(c.head);
        if (m) lags.push(Date.now() - Date.parse(m[1]));
        c.head = chunk.subarray(at + 2, at + 402).toString('latin1');
        at = chunk.indexOf(SEP, at + 2);
      }
      c.pending = 1;
      if (c.head.length === 0) c.pending = 0;
    });
  }).on('error', () => {});
}

function stalled(url) {
  http.get(url, { agent }, (res) => {
    res.pause();
    res.socket.pause();
  }).on('error', () => {});
}

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;

process.on('message', (msg) => {
  if (msg.type === 'open') {
    for (let i = 0; i < msg.n; i++) open(msg.url);
    for (let i = 0; i < msg.stalled; i++) stalled(msg.url);
    setTimeout(() => process.send({ type: 'open' }), 500);
  } else if (msg.type === 'mark') {
    for (const c of clients) c.frames = 0;
    lags = [];
    markAt = Date.now();
  } else if (msg.type === 'report') {
    const secs = (Date.now() - markAt) / 1000;
    const rates = clients.map((c) => c.frames / secs).sort((a, b) => a - b);
    const sortedLags = lags.sort((a, b) => a - b);
    process.send({
      type: 'report',
      rateMin: rates[0] ?? 0,
      rateP50: q(rates, 0.5) ?? 0,
      delivered: rates.reduce((a, b) => a + b, 0),
      lagP50: q(sortedLags, 0.5),
      lagP99: q(sortedLags, 0.99),
    });
  }
});
