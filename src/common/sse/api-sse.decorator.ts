import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-errors.decorator.js';

/** Swagger for an SSE endpoint: `text/event-stream`, the frame format and the 429 stream cap. */
export function ApiSseStream(description: string): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiResponse({
      status: 200,
      description:
        `${description}\n\nServer-Sent Events: each message is \`data: <JSON>\\n\\n\`; a \`: ping\` comment ` +
        'follows 15 s of silence. Headers: Content-Type text/event-stream, Cache-Control no-cache, ' +
        'Connection keep-alive, X-Accel-Buffering no.',
      content: { 'text/event-stream': { schema: { type: 'string', example: 'data: {...}\n\n' } } },
    }),
    ApiErrors({ 429: ['too many open streams'] }),
  );
}
