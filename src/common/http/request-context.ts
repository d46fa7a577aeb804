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

/** Who a request authenticated as (AUTH_MODE=token); absent when it carried no credential. */
export interface Caller {
  tokenId: string;
  email: string;
}

const CALLER = Symbol('caller');

type WithCaller = Request & { [CALLER]?: Caller };

export function setCaller(req: Request, caller: Caller): void {
  (req as WithCaller)[CALLER] = caller;
}

export function callerOf(req: Request): Caller | undefined {
  return (req as WithCaller)[CALLER];
}

/**
 * The key a client's rate limits and stream caps count under: its token when the request
 * authenticated, else its IP (`req.ip` follows TRUST_PROXY).
 */
export function clientKeyOf(req: Request): string {
  const caller = callerOf(req);
  return caller ? `token:${caller.tokenId}` : (req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
