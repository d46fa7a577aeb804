import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError, ErrorCode } from '../common/errors/app-error.js';

export const CROSSING_COUNTS_PATH = '/v1/arbitrage/future/crossing-counts';
export const PARSE_FAILURE = 'Failed to parse request body';

/**
 * The crossing-count POST's own JSON parser, mounted on its path before the global one (which
 * then finds the body already read and leaves it alone).
 *
 * Why its own: the `crossing-counts` rule / the `errors` rule make an unparsable body a 500 `Failed to parse request body` on
 * this route, where every other route answers 400 `Invalid request body`; and the `funding` rule wants valid
 * JSON that is not an object (`[]`, `"x"`, `null`) to be a 400 `Invalid request body`, which
 * needs the non-strict parser (the strict one rejects those as unparsable). Only JSON content
 * types are read; any other is a 415 from the input guard, as on every route.
 */
export function crossingCountsBodyParser(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') {
      next();
      return;
    }
    void parse(req, res, (err?: unknown) => next(err ? toAppError(err) : undefined));
  };
}

function toAppError(err: unknown): AppError {
  // The `errors` rule: a body over the limit stays a 413, as on every route.
  if ((err as { type?: string }).type === 'entity.too.large') {
    return new AppError(ErrorCode.PayloadTooLarge, 'request body too large');
  }
  const error = AppError.internal(PARSE_FAILURE);
  error.cause = err; // logged by the exception filter; never sent
  return error;
}
