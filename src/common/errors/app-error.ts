/** What went wrong, independent of transport; the exception filter maps each code to a status. */
export enum ErrorCode {
  InvalidRequest = 'INVALID_REQUEST',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  Conflict = 'CONFLICT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  RateLimited = 'RATE_LIMITED',
  Internal = 'INTERNAL',
  Unavailable = 'UNAVAILABLE',
}

/**
 * An error whose message is safe to show a client. Anything that is not an AppError (or one
 * of Nest's HttpExceptions) is logged and answered with the endpoint's generic 500 text.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static invalid(message: string): AppError {
    return new AppError(ErrorCode.InvalidRequest, message);
  }

  static notFound(message: string): AppError {
    return new AppError(ErrorCode.NotFound, message);
  }

  static conflict(message: string): AppError {
    return new AppError(ErrorCode.Conflict, message);
  }

  static internal(message: string): AppError {
    return new AppError(ErrorCode.Internal, message);
  }

  static unavailable(message: string): AppError {
    return new AppError(ErrorCode.Unavailable, message);
  }
}

/** The `errors` rule error body. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export const INVALID_REQUEST_BODY = 'Invalid request body';
/** The `errors` rule: a body over the limit, on every route. */
export const PAYLOAD_TOO_LARGE = 'request body too large';
/** A JSON content type whose charset the body parser cannot read (`; charset=latin1`). */
export const UNSUPPORTED_CONTENT_TYPE = 'unsupported content type';
