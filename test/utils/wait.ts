export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads until `ok` holds and answers that value; throws with the last value read (cut to 2,000
 * characters) once `timeoutMs` has passed. Polls every `pollMs`.
 */
export async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs: number, pollMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)?.slice(0, 2_000)}`);
    await sleep(pollMs);
  }
}

/**
 * Resolves once the clock reads a later millisecond than now: a write made after it gets a later
 * creation time than every write already answered (lists ordered by creation time).
 */
export function nextMillisecond(): Promise<number> {
  const now = Date.now();
  return until(() => Date.now(), (t) => t > now, 1000, 1);
}
