import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, type ApiResponseOptions, getSchemaPath, type ResponseObject } from '@nestjs/swagger';
import { INVALID_REQUEST_BODY, PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_TYPE } from '../errors/app-error.js';
import { BODY_TOO_DEEP, JSON_CONTENT_TYPE_REQUIRED } from '../validation/input-guard.js';
import { reasonPhrase } from '../errors/error-status.js';
import { ErrorResponseDto } from '../openapi/error-response.dto.js';

export interface ErrorResponseOptions {
  /** Follows the list of messages in the response description. */
  description?: string;
  headers?: ApiResponseOptions['headers'];
}

/**
 * Documents an endpoint's error statuses: each with the `errors` rule body (`ErrorResponseDto`) and every
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

/**
 * Statuses the shared body parsers and the input guard answer before any route runs, so every
 * operation can answer them (a GET with a 2 MiB JSON body is a 413 too). buildOpenApiDocument
 * adds them to each operation that does not list them itself.
 */
export const TRANSPORT_ERRORS: Readonly<Record<number, string[]>> = {
  400: [INVALID_REQUEST_BODY, BODY_TOO_DEEP],
  413: [PAYLOAD_TOO_LARGE],
  415: [JSON_CONTENT_TYPE_REQUIRED, UNSUPPORTED_CONTENT_TYPE],
};

/** The OpenAPI response object of one error status, as `ApiErrorResponse` documents it. */
export function errorResponseObject(status: number, messages: string[], description?: string): ResponseObject {
  return {
    description: [messages.join('; '), description].filter(Boolean).join('. ') || reasonPhrase(status),
    content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) }, examples: errorExamples(status, messages) } },
  };
}

/** Each message is its own named example, so Swagger UI lists the texts in its example menu. */
export function errorExamples(status: number, messages: string[]): Record<string, { value: ErrorResponseDto }> {
  return Object.fromEntries(messages.map((message) => [message, { value: { statusCode: status, message, error: reasonPhrase(status) } }]));
}

/**
 * The shared JSON body parser runs before every route: a route that takes no body still answers
 * 400 to a malformed JSON one. For such routes (health) it is their only client error.
 */
export function ApiMalformedBodyError(): MethodDecorator & ClassDecorator {
  return ApiErrorResponse(400, [INVALID_REQUEST_BODY], { description: 'A JSON body that cannot be parsed (the route takes none)' });
}
