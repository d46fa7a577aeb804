import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiProduces, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiErrorResponse } from '../http/api-errors.decorator.js';

/** A named SSE event (`event: <name>`) sent instead of a plain message in some condition. */
export interface SseNamedEvent {
  name: string;
  payload: Type<unknown>;
  when: string;
}

export interface SseStreamDoc {
  /** The JSON of one `data:` line; `[Dto]` when it is an array of them. */
  payload: Type<unknown> | [Type<unknown>];
  /** When messages are sent, in a sentence. */
  cadence: string;
  /** The address to show in the EventSource example (a real one, with query if needed). */
  exampleUrl: string;
  /** Messages carry `id:` and a reconnect with `Last-Event-ID` replays what was missed (rules: streams). */
  replay?: { kept: string };
  events?: SseNamedEvent[];
}

/**
 * Swagger for an SSE endpoint, written for a frontend: the `text/event-stream` response's schema
 * is the payload of one `data:` line (so generated clients get its type), and the description
 * says when messages come, the `id:`/`Last-Event-ID` behaviour, the `: ping` comment, the 429 cap
 * and shows an EventSource snippet. Errors are JSON answered before the stream opens (rules: streams).
 */
export function ApiSseStream(doc: SseStreamDoc): MethodDecorator {
  const [model, isArray] = Array.isArray(doc.payload) ? [doc.payload[0], true] : [doc.payload, false];
  const message = isArray ? { type: 'array' as const, items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  const events = doc.events ?? [];
  const schema = events.length === 0 ? message : { oneOf: [message, ...events.map((e) => ({ $ref: getSchemaPath(e.payload) }))] };
  return applyDecorators(
    ApiExtraModels(model, ...events.map((e) => e.payload)),
    ApiProduces('text/event-stream'),
    ...(doc.replay
      ? [ApiHeader({ name: 'last-event-id', required: false, description: 'Resume after this event id (browsers send it by themselves on reconnect)', schema: { type: 'string', pattern: '^\\d{1,16}$', example: '1042' } })]
      : []),
    ApiResponse({
      status: 200,
      description: describeStream(doc, model.name, isArray),
      content: { 'text/event-stream': { schema } },
    }),
    ApiErrorResponse(429, ['too many open streams'], {
      description: 'More than SSE_MAX_PER_IP (default 50) open streams from one client IP; answered before the stream opens',
    }),
  );
}

function describeStream(doc: SseStreamDoc, modelName: string, isArray: boolean): string {
  const data = isArray ? `a JSON array of \`${modelName}\`` : `one \`${modelName}\` as JSON`;
  const paragraphs = [
    `Server-Sent Events. ${doc.cadence} Each message is ${doc.replay ? '`id: <n>`, then ' : ''}\`data: <JSON>\` and a blank ` +
      `line; its data is ${data} (the schema below).`,
    ...(doc.events ?? []).map((e) => `\`event: ${e.name}\` with data \`${e.payload.name}\` ${e.when}.`),
    doc.replay
      ? `Ids increase. The last ${doc.replay.kept} are kept: a client that reconnects with \`Last-Event-ID\` (EventSource ` +
        'does so by itself) first receives the kept events after that id, then live ones, without duplicates; a client ' +
        'too far behind is disconnected.'
      : 'Messages carry no `id:`; after a reconnect the next message brings the current state.',
    'A `: ping` comment follows 15 s of silence (SSE_HEARTBEAT_MS). Headers: `Content-Type: text/event-stream`, ' +
      '`Cache-Control: no-cache`, `Connection: keep-alive`, `X-Accel-Buffering: no`. Validation and lookup errors, ' +
      'and the 429 past SSE_MAX_PER_IP open streams per client IP, are JSON answers before the stream opens.',
  ];
  const snippet = [
    '```js',
    `const source = new EventSource('${doc.exampleUrl}');`,
    `source.onmessage = (e) => render(JSON.parse(e.data)); // ${isArray ? `${modelName}[]` : modelName}`,
    ...(doc.events ?? []).map((e) => `source.addEventListener('${e.name}', (e) => notice(JSON.parse(e.data))); // ${e.payload.name}`),
    '// EventSource reconnects by itself; it stops only when source.readyState === EventSource.CLOSED',
    '```',
  ];
  return [...paragraphs, snippet.join('\n')].join('\n\n');
}
