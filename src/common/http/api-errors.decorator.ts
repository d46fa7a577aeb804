import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { reasonPhrase } from '../errors/error-status.js';

/** Documents an endpoint's error statuses with the D2 body and each message as an example. */
export function ApiErrors(errors: Partial<Record<number, string[]>>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, messages = []]) =>
      ApiResponse({
        status: Number(status),
        description: messages.join('; '),
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['statusCode', 'message', 'error'],
              properties: {
                statusCode: { type: 'integer', example: Number(status) },
                message: { type: 'string', example: messages[0] },
                error: { type: 'string', example: reasonPhrase(Number(status)) },
              },
            },
            examples: Object.fromEntries(
              messages.map((message) => [
                message,
                { value: { statusCode: Number(status), message, error: reasonPhrase(Number(status)) } },
              ]),
            ),
          },
        },
      }),
    ),
  );
}
