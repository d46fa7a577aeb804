// `npm run bench:detector`: the arbitrage detector's hot path on one core: ticks/s for
// 5 exchanges x 300 symbols (apply + best, as the stream service runs them per tick), and the
// per-tick processing time p50/p99 (tick to decision, excluding the 200 ms debounce).
import os from 'node:os';
import { ArbitrageDetector } from '../dist/realtime/arbitrage-detector.engine.js';
import { EXCHANGE_NAMES } from '../dist/market-model/exchanges.js';

const SYMBOLS = 300;
const TICKS = 5_000_000;
const tickers = Array.from({ length: SYMBOLS }, (_, i) => `SYM${i}-USDT`);
const detector = new ArbitrageDetector({ minProfitPercent: 0.1, staleMs: 10_000 });
// Pre-built ticks: mids within ±0.1 % of 100, so some exchange pairs exceed the 0.1 % threshold.
const pool = Array.from({ length: 100_000 }, (_, i) => {
  const mid = 100 * (1 + (Math.random() - 0.5) * 0.002);
  return { exchange: EXCHANGE_NAMES[i % 5], ticker: tickers[Math.floor(i / 5) % SYMBOLS], bid: mid - 0.01, ask: mid + 0.01, receivedAt: 0 };
});

let found = 0;
const run = (n) => {
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const t = pool[i % pool.length];
    t.receivedAt = now;
    detector.apply(t);
    if (detector.best(t.ticker, now)) found++;
  }
};
run(500_000); // warm-up
found = 0;
const t0 = process.hrtime.bigint();
run(TICKS);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;

// Per-tick latency, sampled one tick at a time.
const samples = new Float64Array(200_000);
for (let i = 0; i < samples.length; i++) {
  const t = pool[i % pool.length];
  const s = process.hrtime.bigint();
  t.receivedAt = Date.now();
  detector.apply(t);
  detector.best(t.ticker, t.receivedAt);
  samples[i] = Number(process.hrtime.bigint() - s);
}
samples.sort();
console.log(`node ${process.version}, ${os.cpus()[0]?.model}`);
console.log(`ticks/s: ${(TICKS / secs / 1e6).toFixed(2)} M (${TICKS} ticks in ${secs.toFixed(2)} s; ${found} opportunity decisions)`);
console.log(`per-tick time: p50 ${(samples[samples.length * 0.5] / 1000).toFixed(2)} µs, p99 ${(samples[Math.floor(samples.length * 0.99)] / 1000).toFixed(2)} µs`);
