/**
 * Marks a read started ahead of need (the next page, the next group) as handled: if its reader
 * stops early and never awaits it, a rejection must not become an unhandled rejection that
 * takes the process down. Awaiting the returned promise still throws.
 */
export function readAhead<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
