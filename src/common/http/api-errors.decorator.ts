import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, type ApiResponseOptions, getSchemaPath } from '@nestjs/swagger';
import { INVALID_REQUEST_BODY } from '../errors/app-error.js';
import { reasonPhrase } from '../errors/error-status.js';
import { ErrorResponseDto } from '../openapi/error-response.dto.js';

export interface ErrorResponseOptions {
  /** Follows the list of messages in the response description. */
  description?: string;
  headers?: ApiResponseOptions['headers'];
}

/**
 * Documents an endpoint's error statuses: each with the D2 body (`ErrorResponseDto`) and every
 * message the endpoint can answer as a named example, so Swagger UI and generated clients show
 * the exact texts. `{ 400: ['email is required', ...], 404: [...] }`.
 */
export function ApiErrors(errors: Partial<Record<number, string[]>>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto),
    ...Object.entries(errors).map(([status, messages = []]) => ApiErrorResponse(Number(status), messages)),
  );
}

/** One error status with its messages; `ApiErrors` is the usual way, this one also takes headers. */
export function ApiErrorResponse(status: number, messages: string[], options: ErrorResponseOptions = {}): MethodDecorator & ClassDecorator {
  const listed = messages.join('; ');
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto),
    ApiResponse({
      status,
      description: [listed, options.description].filter(Boolean).join('. ') || reasonPhrase(status),
      headers: options.headers,
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(ErrorResponseDto) },
          examples: errorExamples(status, messages),
        },
      },
    }),
  );
}

/** Each message is its own named example, so Swagger UI lists the texts in its example menu. */
function errorExamples(status: number, messages: string[]): Record<string, { value: ErrorResponseDto }> {
  return Object.fromEntries(messages.map((message) => [message, { value: { statusCode: status, message, error: reasonPhrase(status) } }]));
}

/**
 * The shared JSON body parser runs before every route: a route that takes no body still answers
 * 400 to a malformed JSON one. For such routes (health) it is their only client error.
 */
export function ApiMalformedBodyError(): MethodDecorator & ClassDecorator {
  return ApiErrorResponse(400, [INVALID_REQUEST_BODY], { description: 'A JSON body that cannot be parsed (the route takes none)' });
}
