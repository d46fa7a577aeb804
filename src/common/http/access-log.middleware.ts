import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-context.js';

const logger = new Logger('Http');

/** One structured line per request, with its id, route pattern, status and duration. */
export function accessLogMiddleware(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    logger.log({
      msg: 'request',
      requestId: requestIdOf(req),
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
    });
  });
  next();
}
