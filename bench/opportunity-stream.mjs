// `npm run bench:opportunities`: what an opportunity event costs when it is built and
// handed to 1,000 stream clients, before and after the new members and the per-client filters.
//   baseline: the `opportunities` rule event serialised once and given to 1,000 clients (the stream before
//             the net spread stream, from BENCH_BASELINE_DIST when given);
//   The same event priced (costs book lookups, decimal net spread, network), serialised
//             once, kept with its filter fields in the replay ring, and tested once per distinct
//             filter: 1,000 clients over 50 distinct filters (20 clients each).
// Single process, one core; the socket writes (one per client and event, before and after) are
// not included. Also: the detector's per-tick cost with the route-episode state, against the
// build in BENCH_BASELINE_DIST (e.g. a checkout of main's dist/) when it is given.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Subject } from 'rxjs';
import { dataFrame } from '../dist/common/sse/sse-frame.js';
import { EXCHANGE_NAMES } from '../dist/market-model/exchanges.js';
import { MarketCostsBook } from '../dist/market-data/market-costs.book.js';
import { QuoteBook } from '../dist/market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../dist/market-data/quote-tick-bus.js';
import { RouteEpisodeQueue } from '../dist/opportunity-history/route-episodes.js';
import { parseOpportunityFilter } from '../dist/realtime/opportunity-filter.js';
import { OpportunityStreamService } from '../dist/realtime/opportunity-stream.service.js';

const CLIENTS = 1000;
const FILTERS = 50;
const EVENTS = 20_000;
const SYMBOLS = 300;
const tickers = Array.from({ length: SYMBOLS }, (_, i) => `SYM${i}-USDT`);
const clock = { now: () => Date.now() };

// Costs known for every exchange and ticker: fees and one common open network.
const costs = new MarketCostsBook({
  fetchTradingFees: () => Promise.resolve(tickers.map((ticker) => ({ ticker, takerPercent: 0.1 }))),
  fetchNetworks: () => Promise.resolve(tickers.map((t) => ({ asset: t.split('-')[0], network: 'ERC20', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.01 }))),
});
for (const e of EXCHANGE_NAMES) await costs.refresh(e);

const config = {
  realtime: { minProfitPercent: 0.1, debounceMs: 200, pricesIntervalMs: 1000, netReferenceUsdt: 1000 },
  history: { recorderEnabled: false },
};
const newService = () => {
  const bus = new InProcessQuoteTickBus();
  return new OpportunityStreamService(config, bus, clock, new QuoteBook(bus, clock), costs, new RouteEpisodeQueue(config));
};
const service = newService();
// The same members without filters: 1,000 clients of the unfiltered stream (one group).
const unfiltered = newService();
let unfilteredDelivered = 0;
for (let c = 0; c < CLIENTS; c++) unfiltered.frames(null, null).subscribe(() => { unfilteredDelivered++; });

// 50 distinct filters: ticker subsets, exchange triples, net and gross floors, transferable.
const TRIPLES = EXCHANGE_NAMES.flatMap((a, i) => EXCHANGE_NAMES.slice(i + 1).flatMap((b, j) =>
  EXCHANGE_NAMES.slice(i + j + 2).map((c) => [a, b, c])));
const filterQueries = Array.from({ length: FILTERS }, (_, i) => {
  switch (i % 5) {
    case 0: return { tickers: tickers.slice(i, i + 20).join(',') };
    case 1: return { exchanges: TRIPLES[Math.floor(i / 5) % TRIPLES.length].join(',') };
    case 2: return { minNetProfit: String((i / 100).toFixed(2)) };
    case 3: return { minProfit: String((0.1 + i / 200).toFixed(3)), transferable: 'true' };
    default: return { tickers: tickers.slice(0, 100).join(','), minNetProfit: String(-i / 100) };
  }
});
let delivered = 0;
const onFrame = (f) => { delivered += f.bytes.length > 0 ? 1 : 0; };
for (let c = 0; c < CLIENTS; c++) {
  service.frames(null, parseOpportunityFilter(filterQueries[c % FILTERS], EXCHANGE_NAMES)).subscribe(onFrame);
}

const opportunities = Array.from({ length: 1000 }, (_, i) => {
  const buyPrice = 100;
  const sellPrice = 100 * (1 + (0.1 + (i % 50) / 100) / 100);
  return {
    ticker: tickers[i % SYMBOLS], buyExchange: EXCHANGE_NAMES[i % 5], sellExchange: EXCHANGE_NAMES[(i + 1 + (i % 4)) % 5],
    buyPrice, sellPrice, profitPercentAskBid: ((sellPrice - buyPrice) / buyPrice) * 100,
  };
});

function timePerEvent(run) {
  run(2000); // warm-up
  const t0 = process.hrtime.bigint();
  run(EVENTS);
  return Number(process.hrtime.bigint() - t0) / 1e3 / EVENTS;
}

// Before the `opportunities` rule members. With BENCH_BASELINE_DIST (a build of the code before
// the net spread stream), its own OpportunityStreamService with 1,000 clients; else one subject with 1,000
// subscribers, which leaves out the per-client Observable of frames() (so it flatters the baseline).
const baseDist = process.env.BENCH_BASELINE_DIST;
let plainDelivered = 0;
let baseline;
let baselineKind;
if (baseDist) {
  const { OpportunityStreamService: Before } = await import(pathToFileURL(path.resolve(baseDist, 'realtime/opportunity-stream.service.js')).href);
  const bus = new InProcessQuoteTickBus();
  const before = new Before(config, bus, clock, new QuoteBook(bus, clock));
  for (let c = 0; c < CLIENTS; c++) before.frames(null).subscribe(() => { plainDelivered++; });
  baseline = timePerEvent((n) => {
    for (let i = 0; i < n; i++) before.publish(opportunities[i % opportunities.length]);
  });
  baselineKind = `the service before net spreads (${baseDist})`;
  before.onModuleDestroy();
} else {
  const plain = new Subject();
  for (let c = 0; c < CLIENTS; c++) plain.subscribe(() => { plainDelivered++; });
  baseline = timePerEvent((n) => {
    for (let i = 0; i < n; i++) {
      const o = opportunities[i % opportunities.length];
      plain.next(dataFrame({ ...o, volume: 1e9, timestamp: new Date().toISOString() }, { id: i }));
    }
  });
  baselineKind = 'one subject';
}
const membersOnly = timePerEvent((n) => {
  for (let i = 0; i < n; i++) unfiltered.publish(opportunities[i % opportunities.length]);
});
const issue21 = timePerEvent((n) => {
  for (let i = 0; i < n; i++) service.publish(opportunities[i % opportunities.length]);
});
const perEventDeliveries = delivered / (EVENTS + 2000);

// The detector per tick, with route episodes (this build) and, if given, the baseline build.
async function detectorTicksPerSecond(distDir) {
  const { ArbitrageDetector } = await import(pathToFileURL(path.resolve(distDir, 'realtime/arbitrage-detector.engine.js')).href);
  const detector = new ArbitrageDetector({ minProfitPercent: 0.1, staleMs: 10_000, onEpisodeClosed: () => {} });
  const pool = Array.from({ length: 100_000 }, (_, i) => {
    const mid = 100 * (1 + (Math.random() - 0.5) * 0.002);
    return { exchange: EXCHANGE_NAMES[i % 5], ticker: tickers[Math.floor(i / 5) % SYMBOLS], bid: mid - 0.01, ask: mid + 0.01, receivedAt: 0 };
  });
  const run = (n) => {
    let found = 0;
    for (let i = 0; i < n; i++) {
      const t = pool[i % pool.length];
      t.receivedAt = Date.now();
      detector.apply(t);
      if (detector.best(t.ticker, t.receivedAt)) found++;
    }
    return found;
  };
  run(500_000);
  const t0 = process.hrtime.bigint();
  run(3_000_000);
  return 3_000_000 / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const withEpisodes = await detectorTicksPerSecond(fileURLToPath(new URL('../dist', import.meta.url)));
const before = baseDist ? await detectorTicksPerSecond(baseDist) : null;

console.log(`node ${process.version}, ${os.cpus()[0]?.model}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`event, 1,000 clients, plain members,     ${baselineKind}: ${baseline.toFixed(2)} µs per event (${(plainDelivered / (EVENTS + 2000)).toFixed(0)} deliveries each)`);
console.log(`event, 1,000 clients, priced members, no filter:                 ${membersOnly.toFixed(2)} µs per event (${(unfilteredDelivered / (EVENTS + 2000)).toFixed(0)} deliveries each)`);
console.log(`event, 1,000 clients, priced members, ${FILTERS} distinct filters:  ${issue21.toFixed(2)} µs per event (${perEventDeliveries.toFixed(0)} deliveries each)`);
console.log(`filter groups: ${service.filterGroupCount}; frames serialised per event: 1`);
console.log(`detector ticks/s with route episodes: ${(withEpisodes / 1e6).toFixed(2)} M` + (before ? `; baseline (${baseDist}): ${(before / 1e6).toFixed(2)} M` : ''));
service.onModuleDestroy();
unfiltered.onModuleDestroy();
