/**
 * Cooperative slicing of long CPU work (row checks, page conversions) so that the event loop
 * gets back to its sockets between slices, however many such jobs run at once.
 *
 * `setImmediate` alone does not do that: every callback queued before the check phase runs in
 * that phase, so 50 imports that each yield after 5 ms of work still held the loop for 250 ms
 * per turn. Here waiters are released one per turn of the loop, first come first served: a
 * turn runs at most one slice, then polls for I/O again.
 */
const waiters: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  const next = waiters.shift();
  // Queued from inside the check phase, the next release runs in the next turn.
  if (waiters.length > 0) setImmediate(releaseOne);
  else scheduled = false;
  next?.();
}

/** Resolves in a later turn of the event loop than any waiter queued before it. */
export function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiters.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(releaseOne);
    }
  });
}

/** CPU time one slice may take before it gives the loop a turn. */
export const SLICE_MS = 5;

/** Tracks one job's slice: `pace()` takes a turn once the slice has run for SLICE_MS. */
export class Slicer {
  private since = performance.now();

  async pace(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await takeTurn();
    this.since = performance.now();
  }
}
