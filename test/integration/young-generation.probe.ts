import { getHeapSpaceStatistics } from 'node:v8';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { limitHeapGrowth } from '../../src/common/memory/heap-growth.js';
import { WORKER_YOUNG_GENERATION_MB } from '../../src/market-data/ingest/worker-market-data.source.js';

/**
 * Run by young-generation.int-spec.ts in a process of its own, started with the service's node
 * flags or without them. As the service's entry does, it calls `limitHeapGrowth()` first, then
 * starts a worker with the ingest workers' young generation; both threads allocate garbage that
 * survives a scavenge or two (what makes V8 grow a young generation), and the process prints
 * each thread's new space, in MB, as one JSON line.
 */
function churn(): void {
  const keep: object[][] = [];
  for (let round = 0; round < 150; round++) {
    const batch = Array.from({ length: 50_000 }, (_, i) => ({ a: i, b: `x${i}` }));
    keep.push(batch.slice(0, 2_000));
    if (keep.length > 40) keep.shift();
  }
}
const newSpaceMb = (): number => (getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) / 1024 / 1024;

if (isMainThread) {
  limitHeapGrowth();
  const worker = new Worker(new URL(import.meta.url), {
    // The TypeScript loader only, as the service's worker script gives it (a V8 flag is refused here).
    execArgv: process.execArgv.flatMap((arg, i, all) => (arg === '--import' ? [arg, all[i + 1]] : [])),
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  const workerMb = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  churn();
  process.stdout.write(`${JSON.stringify({ servingMb: newSpaceMb(), workerMb })}\n`);
} else {
  churn();
  parentPort?.postMessage(newSpaceMb());
}
