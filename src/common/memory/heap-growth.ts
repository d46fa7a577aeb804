import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what the last full collection kept, in percent (rules:
 * embedded-memory). V8's own factor adapts between 1.1 and 4 and, on a busy service, settles
 * near the top: the serving heap of the service at 3,020 markets held about 75 MB alive in
 * 290 MB committed. At 50 % it committed about 150 MB for the same work and the same CPU
 * (BENCHMARKS.md, "Service memory"); at 30 % the service's RSS at 3,020 markets is about 40 MB
 * lower again for a few points of a core more collection (BENCHMARKS.md, "The heap's growth at
 * 30 %"). The flag is process-wide, so the ingest workers' heaps follow it too.
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Node flags the service's process is started with (`npm start`, `npm run demo`, the Docker
 * image; rules: embedded-memory). V8 sizes a thread's young generation when the thread starts,
 * and the serving thread starts before any code of ours runs: only a start-up flag reaches it.
 * Each of its two semi-spaces is 4 MB instead of V8's 16: the serving thread's garbage dies
 * young (a frame, a request), so a small young generation costs it little CPU and saves about
 * 30 MB of resident pages (BENCHMARKS.md, "The serving thread's young generation").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** Sets the growth limit and lets the ingest workers size their own young generation; called first thing by the service's entry. */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  // A start-up `--max-semi-space-size` would also override every worker's `resourceLimits`
  // (V8 reads the flag when a thread starts). Cleared here, after the serving thread has been
  // sized by it, so each ingest worker gets WORKER_YOUNG_GENERATION_MB.
  setFlagsFromString('--max-semi-space-size=0');
}
