import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, type ErrorBody, ErrorCode, INVALID_REQUEST_BODY, PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_TYPE } from './app-error.js';
import { reasonPhrase, statusOf } from './error-status.js';
import { failureMessageOf, requestIdOf } from '../http/request-context.js';
import { errorFields } from '../logging/json-logger.js';

const GENERIC_FAILURE = 'Internal server error';
export const ROUTE_NOT_FOUND = 'route not found';
export const PATH_NOT_UTF8 = 'request path must be well-formed UTF-8';

/**
 * The one exception filter. Every error leaves as the `errors` rule body; only AppError and Nest's
 * HttpException messages are shown to clients, anything else is logged with the request id and
 * answered with the endpoint's documented 500 text.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const { body, headers } = this.toResponse(exception, req);
    if (res.headersSent) {
      // A stream that already started cannot change its status; end it.
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(body.statusCode).json(body);
  }

  private toResponse(exception: unknown, req: Request): { body: ErrorBody; headers: Record<string, string> } {
    if (exception instanceof AppError) {
      const status = statusOf(exception.code);
      if (exception.code === ErrorCode.Internal) this.logUnexpected(exception.cause ?? exception, req);
      return { body: bodyOf(status, exception.message), headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 500) {
        this.logUnexpected(exception, req);
        return { body: bodyOf(status, failureMessageOf(req) ?? GENERIC_FAILURE), headers: {} };
      }
      return { body: bodyOf(status, clientMessageOf(exception)), headers: {} };
    }
    this.logUnexpected(exception, req);
    return { body: bodyOf(500, failureMessageOf(req) ?? GENERIC_FAILURE), headers: {} };
  }

  private logUnexpected(error: unknown, req: Request): void {
    this.logger.error({
      msg: 'unexpected error',
      requestId: requestIdOf(req),
      method: req.method,
      path: req.path,
      error: errorFields(error),
    });
  }
}

function bodyOf(status: number, message: string): ErrorBody {
  return { statusCode: status, message, error: reasonPhrase(status) };
}

/** A client-facing message for Nest's own exceptions, without parser internals. */
function clientMessageOf(exception: HttpException): string {
  const status = exception.getStatus();
  const cause = exception.cause as { type?: string } | undefined;
  if (cause?.type === 'entity.parse.failed' || cause instanceof SyntaxError) return INVALID_REQUEST_BODY;
  if (status === 413) return PAYLOAD_TOO_LARGE;
  if (status === 415) return UNSUPPORTED_CONTENT_TYPE;
  // The router's own 404 text is `Cannot GET <url>`, query string and all (e-mail addresses).
  if (status === 404) return ROUTE_NOT_FOUND;
  // The router's text for a path segment that is not UTF-8 repeats the segment (found by the fuzz suite).
  if (status === 400 && exception.message.startsWith('Failed to decode param')) return PATH_NOT_UTF8;
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  if (typeof message === 'string') return message;
  return reasonPhrase(status);
}
