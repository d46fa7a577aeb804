import { HttpStatus } from '@nestjs/common';
import { ErrorCode } from './app-error.js';

export function statusOf(code: ErrorCode): HttpStatus {
  switch (code) {
    case ErrorCode.InvalidRequest:
      return HttpStatus.BAD_REQUEST;
    case ErrorCode.Unauthorized:
      return HttpStatus.UNAUTHORIZED;
    case ErrorCode.Forbidden:
      return HttpStatus.FORBIDDEN;
    case ErrorCode.NotFound:
      return HttpStatus.NOT_FOUND;
    case ErrorCode.Conflict:
      return HttpStatus.CONFLICT;
    case ErrorCode.PayloadTooLarge:
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case ErrorCode.UnsupportedMediaType:
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
    case ErrorCode.RateLimited:
      return HttpStatus.TOO_MANY_REQUESTS;
    case ErrorCode.Internal:
      return HttpStatus.INTERNAL_SERVER_ERROR;
    case ErrorCode.Unavailable:
      return HttpStatus.SERVICE_UNAVAILABLE;
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}
