// `node bench/depth-walk.mjs` (after `npm run build`): CPU per pricing of an opportunity's `size`
// (walkDepth: the fill at 1,000 USDT and maxSizeUsdt) on books shaped as the simulator makes them
// (20 levels a side, two ticks apart, each 5 % thinner), the sell exchange 1 % above the buy one so
// the route stays open all the way down and the size search reads every level, the costliest case.
// 200 books over five price scales (0.01 to 43,000). BENCH_REFERENCE_DIST=<another build's dist>
// times that build's walkDepth in the same run, alternated, and prints the ratio; both must give
// the same answers on every case or the bench stops.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Each build is handed the books in the form its service holds them: flat price, quantity pairs
// where the build has them (flatLevels), tuples before.
const load = async (dist) => {
  const engine = await import(pathToFileURL(path.resolve(dist, 'realtime/depth.engine.js')).href);
  const held = engine.flatLevels ?? ((levels) => levels);
  return (input) => ({ walk: engine.walkDepth, input: { ...input, asks: held(input.asks), bids: held(input.bids) } });
};
const nowBuild = await load(new URL('../dist', import.meta.url).pathname);
const refBuild = process.env.BENCH_REFERENCE_DIST ? await load(process.env.BENCH_REFERENCE_DIST) : null;

function book(mid) {
  const tick = Number((mid * 0.0001).toPrecision(2));
  const qty = Number((2000 / mid).toPrecision(4));
  const side = (best, dir) => Array.from({ length: 20 }, (_, i) => [Number((best + dir * 2 * i * tick).toFixed(6)), Number((qty * 0.95 ** i).toPrecision(5))]);
  return { asks: side(mid * 1.00005, 1), bids: side(mid * 0.99995, -1) };
}
const cases = Array.from({ length: 200 }, (_, k) => {
  const mid = [0.0123, 1.234, 43.21, 2345.6, 43_000][k % 5] * (1 + k / 1000);
  return { asks: book(mid).asks, bids: book(mid * 1.01).bids, notionalUsdt: 1000, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 0.01, minNetPercent: 0 };
});
const prepared = (build) => {
  const all = cases.map(build);
  return { walk: all[0].walk, inputs: all.map((c) => c.input) };
};
const walkNow = prepared(nowBuild);
const walkRef = refBuild ? prepared(refBuild) : null;
if (walkRef) {
  cases.forEach((c, k) => {
    if (JSON.stringify(walkNow.walk(walkNow.inputs[k])) !== JSON.stringify(walkRef.walk(walkRef.inputs[k]))) throw new Error(`the two builds disagree on ${JSON.stringify(c)}`);
  });
}
const timed = ({ walk, inputs }, n) => {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < n; i++) sink += walk(inputs[i % inputs.length]).maxSizeUsdt;
  if (!(sink > 0)) throw new Error('no size found');
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let r = 0; r < 3; r++) { timed(walkNow, 2000); if (walkRef) timed(walkRef, 2000); }
const now = [];
const ref = [];
for (let r = 0; r < 7; r++) {
  if (walkRef) ref.push(timed(walkRef, 5000));
  now.push(timed(walkNow, 5000));
}
console.log(`walkDepth, 20-level books open to the last level, µs per pricing (median of 7 x 5,000): ${median(now).toFixed(1)}`);
if (walkRef) console.log(`reference build: ${median(ref).toFixed(1)} µs; ratio ${(median(now) / median(ref)).toFixed(2)}`);
