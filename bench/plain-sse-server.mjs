// Reference for `npm run bench:ingest`: a plain node:http server that sends the same
// bytes as the service's price stream (one captured frame, once a second, to every client), with
// nothing else running. What the service spends above its own idle to serve the same clients is
// compared with what this spends. IPC: { type: 'frame', path } → { type: 'ready', port };
// { type: 'stats' } → { cpuSeconds }.
import { readFileSync } from 'node:fs';
import http from 'node:http';

let frame = Buffer.alloc(0);
const clients = new Set();
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  clients.add(res);
  req.on('close', () => clients.delete(res));
});
setInterval(() => {
  for (const res of clients) if (res.writableLength === 0) res.write(frame);
}, 1000);

process.on('message', (msg) => {
  if (msg.type === 'frame') {
    frame = readFileSync(msg.path);
    server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
  } else if (msg.type === 'stats') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'stats', cpuSeconds: (user + system) / 1e6 });
  }
});
