import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work belongs to, carried across awaits: every log line written while
 * a request is handled (by a controller, a service, a repository, the exception filter) carries
 * its id without each caller passing it.
 */
const store = new AsyncLocalStorage<{ requestId: string }>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return store.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return store.getStore()?.requestId;
}
