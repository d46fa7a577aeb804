import type { Request } from 'express';

/** Per-request facts shared between middleware, interceptors and the exception filter. */
interface RequestContext {
  requestId?: string;
  failureMessage?: string;
}

const CONTEXT = Symbol('request-context');

type WithContext = Request & { [CONTEXT]?: RequestContext };

function contextOf(req: Request): RequestContext {
  const r = req as WithContext;
  r[CONTEXT] ??= {};
  return r[CONTEXT];
}

export function setRequestId(req: Request, id: string): void {
  contextOf(req).requestId = id;
}

export function requestIdOf(req: Request): string | undefined {
  return contextOf(req).requestId;
}

export function setFailureMessage(req: Request, message: string | undefined): void {
  contextOf(req).failureMessage = message;
}

export function failureMessageOf(req: Request): string | undefined {
  return contextOf(req).failureMessage;
}
