import { getHeapStatistics } from 'node:v8';
import { limitHeapGrowth } from '../../src/common/memory/heap-growth.js';

/**
 * Run by heap-growth.int-spec.ts in a process of its own, with or without `limitHeapGrowth()`
 * (PROBE_LIMIT=1): keeps about 60 MB alive, then for PROBE_ROUNDS rounds allocates objects that
 * live long enough to be promoted and then die (what a busy service's serving heap does), and
 * prints the largest committed heap seen against the live size, in MB, as one JSON line.
 */
if (process.env.PROBE_LIMIT === '1') limitHeapGrowth();

interface Item { a: number; b: number; c: string; d: number[] }
const make = (i: number): Item => ({ a: i * 1.5, b: i / 3, c: `item-${i}`, d: [i, i + 1, i + 2] });
const live: Item[] = Array.from({ length: 400_000 }, (_, i) => make(i));
const recent: Item[][] = [];
let peak = 0;
for (let round = 0; round < Number(process.env.PROBE_ROUNDS ?? 400); round++) {
  // Each batch survives a few rounds (so scavenges promote it) and then becomes garbage.
  recent.push(Array.from({ length: 20_000 }, (_, i) => make(round * 20_000 + i)));
  if (recent.length > 8) recent.shift();
  peak = Math.max(peak, getHeapStatistics().total_heap_size);
  if (round % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
}
const MB = 1024 * 1024;
process.stdout.write(`${JSON.stringify({ liveItems: live.length, peakCommittedMb: peak / MB, usedMb: getHeapStatistics().used_heap_size / MB })}\n`);
