// `npm run bench:quote-book`: quote-book throughput on one core. Applies pre-built ticks for
// 5 exchanges x 2 markets x 300 symbols (the default universe) to the book, which stores each
// tick and publishes it on the shared tick bus, first with no bus subscriber, then with one
// (a consumer that reads every tick, as the realtime streams do). Target: >= 500k ticks/s.
// Runs against the compiled service (`npm run build`, or BENCH_DIST=<outDir>).
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname);
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { QuoteBook } = await load('market-data/quote-book.js');
const { InProcessQuoteTickBus } = await load('market-data/quote-tick-bus.js');
const { EXCHANGE_NAMES } = await load('market-model/exchanges.js');

const SYMBOLS = 300;
const TICKS = 3_000_000;
const RUNS = 5;
const tickers = Array.from({ length: SYMBOLS }, (_, i) => `SYM${i}-USDT`);
// A fresh object per tick, as the feeds produce them; pre-built so the figure is the book's.
const ticks = Array.from({ length: TICKS }, (_, i) => ({
  exchange: EXCHANGE_NAMES[i % 5],
  market: i % 2 === 0 ? 'SPOT' : 'FUTURES',
  ticker: tickers[Math.floor(i / 10) % SYMBOLS],
  bid: 100 + (i % 97) * 0.01,
  ask: 100.02 + (i % 97) * 0.01,
  bidQty: 1,
  askQty: 1,
  exchangeTime: i,
  receivedAt: Date.now(),
}));

function run(subscribe) {
  const bus = new InProcessQuoteTickBus();
  const book = new QuoteBook(bus, { now: () => Date.now() });
  let seen = 0;
  const sub = subscribe ? bus.ticks.subscribe(() => seen++) : null;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < TICKS; i++) book.apply(ticks[i]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  sub?.unsubscribe();
  if (subscribe && seen !== TICKS) throw new Error('subscriber missed ticks');
  return TICKS / seconds;
}

console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}, node ${process.version}, one thread`);
for (const subscribe of [false, true]) {
  run(subscribe); // warm-up (JIT)
  const rates = Array.from({ length: RUNS }, () => run(subscribe)).sort((a, b) => a - b);
  const median = rates[Math.floor(RUNS / 2)];
  console.log(
    `quote book, ${subscribe ? 'one' : 'no'} bus subscriber: median ${(median / 1e6).toFixed(2)} M ticks/s ` +
      `(min ${(rates[0] / 1e6).toFixed(2)}, max ${(rates[RUNS - 1] / 1e6).toFixed(2)}; ${RUNS} runs x ${TICKS / 1e6} M ticks)`,
  );
}
