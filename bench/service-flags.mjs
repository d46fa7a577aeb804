// The node flags the service is started with in production (`SERVICE_NODE_FLAGS` in
// src/common/memory/heap-growth.ts: package.json's start scripts, the demo and the Docker image
// use them), so the benches measure the process as it runs. BENCH_SERVICE_NODE_ARGS replaces
// them (space-separated; set it empty for none, e.g. to compare); a build from before the flags
// existed gets none.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function serviceNodeFlags(dist) {
  if (process.env.BENCH_SERVICE_NODE_ARGS !== undefined) return process.env.BENCH_SERVICE_NODE_ARGS.split(' ').filter(Boolean);
  try {
    const { SERVICE_NODE_FLAGS } = await import(pathToFileURL(path.join(dist, 'common/memory/heap-growth.js')).href);
    return [...(SERVICE_NODE_FLAGS ?? [])];
  } catch {
    return [];
  }
}
