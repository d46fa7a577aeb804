import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { setRequestId } from './request-context.js';
import { runWithRequestId } from '../logging/log-context.js';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when sane), echoes it back, and runs the
 * rest of the request inside it so every log line of the request carries it.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  const id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
  setRequestId(req, id);
  res.setHeader('X-Request-Id', id);
  runWithRequestId(id, next);
}
