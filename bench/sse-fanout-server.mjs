// Server side of `npm run bench:sse` (run from dist/ after `npm run build`). Serves the price
// snapshot stream of 5 exchanges x 300 symbols x 2 markets (3,000 quotes) in one of two modes:
//   shared: the production path (PriceSnapshotService + SseHub): one JSON.stringify and one
//           Buffer per tick, the same bytes written to every client, skip-if-not-drained.
//   naive:  the baseline: a timer per client and JSON.stringify per client per tick, always
//           written (what Nest's @Sse does).
// IPC: replies { type: 'ready', port }, then on { type: 'stats' } { cpuSeconds, rssMb, maxBuffered }.
import 'reflect-metadata';
import http from 'node:http';
import express from 'express';
import { SseHub } from '../dist/common/sse/sse-hub.service.js';
import { loadConfig } from '../dist/config/validate-env.js';
import { EXCHANGE_NAMES } from '../dist/market-model/exchanges.js';
import { QuoteBook } from '../dist/market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../dist/market-data/quote-tick-bus.js';
import { MetricsService } from '../dist/common/metrics/metrics.service.js';
import { PriceSnapshotService } from '../dist/realtime/price-snapshot.service.js';

const mode = process.argv[2] ?? 'shared';
const SYMBOLS = 300;
const config = loadConfig({ SSE_MAX_PER_IP: '100000', LOG_LEVEL: 'silent' });
const book = new QuoteBook(new InProcessQuoteTickBus(), { now: () => Date.now() });
const connected = Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, { connected: true }]));
const prices = new PriceSnapshotService(config, book, { healthReport: () => connected });
const hub = new SseHub(config, new MetricsService());

// Live-like quotes: every 100 ms every quote gets a new tick (the first one is the sentinel
// whose updatedAt the clients use to measure delivery lag).
const tickers = Array.from({ length: SYMBOLS }, (_, i) => `SYM${i}-USDT`);
const refresh = () => {
  const now = Date.now();
  for (const exchange of EXCHANGE_NAMES) {
    for (const market of ['SPOT', 'FUTURES']) {
      for (const ticker of tickers) {
        const mid = 100 + Math.random();
        book.apply({ exchange, market, ticker, bid: mid - 0.01, ask: mid + 0.01, bidQty: 1.5, askQty: 2.5, exchangeTime: now, receivedAt: now });
      }
    }
  }
};
refresh();
setInterval(refresh, 100);

const responses = new Set();
const app = express();
app.get('/v1/realtime/prices', (req, res) => {
  responses.add(res);
  res.on('close', () => responses.delete(res));
  if (mode === 'shared') return hub.open(req, res, prices.frames, { stream: 'prices', policy: 'latest' });
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  const timer = setInterval(() => res.write(`data: ${JSON.stringify(prices.snapshot())}\n\n`), 1000);
  res.on('close', () => clearInterval(timer));
});
const server = http.createServer(app);
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));

process.on('message', (msg) => {
  if (msg.type !== 'stats') return;
  const cpu = process.cpuUsage();
  let maxBuffered = 0;
  for (const res of responses) maxBuffered = Math.max(maxBuffered, res.writableLength);
  process.send({ type: 'stats', cpuSeconds: (cpu.user + cpu.system) / 1e6, rssMb: process.memoryUsage().rss / 2 ** 20, maxBuffered });
});
