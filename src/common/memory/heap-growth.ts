import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what the last full collection kept, in percent (rules:
 * embedded-memory). V8's own factor adapts between 1.1 and 4 and, on a busy service, settles
 * near the top: the serving heap of the service at 3,020 markets held about 75 MB alive in
 * 290 MB committed. At 50 % it commits about 150 MB for the same work and the same CPU
 * (BENCHMARKS.md, "Service memory"). The flag is process-wide, so the ingest workers' heaps
 * follow it too.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Sets the growth limit; called first thing by the service's entry. */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
