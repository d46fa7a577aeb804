import type { OpenAPIObject } from '@nestjs/swagger';
import { isStream, operationsOf, type Operation } from './openapi-rules.js';

/**
 * The parts of docs/api.md that are generated from the OpenAPI document, so the prose around
 * them cannot drift from the code: the endpoint table, the error table and the stream table.
 * Each lives between `<!-- openapi:<name> -->` and `<!-- /openapi:<name> -->`.
 */
export function renderSections(document: OpenAPIObject): Record<string, string> {
  const ops = operationsOf(document);
  const endpoints = [
    '| method | path | operation id | what it does | success |',
    '|---|---|---|---|---|',
    ...ops.map(({ method, path, op }) => `| ${method.toUpperCase()} | \`${path}\` | \`${op.operationId}\` | ${cell(op.summary)} | ${success(op)} |`),
  ];
  const errors = [
    '| endpoint | status | messages |',
    '|---|---|---|',
    ...ops.flatMap(({ method, path, op }) =>
      Object.entries(op.responses ?? {})
        .filter(([status]) => Number(status) >= 400)
        .map(([status, r]) => `| ${method.toUpperCase()} \`${path}\` | ${status} | ${messagesOf(r).map((m) => `\`${cell(m)}\``).join('; ')} |`),
    ),
  ];
  const streams = [
    '| path | operation id | each `data:` is | ids, `Last-Event-ID` |',
    '|---|---|---|---|',
    ...ops
      .filter(({ op }) => isStream(op))
      .map(({ path, op }) => `| \`${path}\` | \`${op.operationId}\` | ${payloadOf(op)} | ${replays(op) ? 'yes: replay of kept events' : 'no: the next message is the current state'} |`),
  ];
  return { endpoints: endpoints.join('\n'), errors: errors.join('\n'), streams: streams.join('\n') };
}

/** Replaces the content of every marked section; a missing marker is an error, not a silent skip. */
export function fillSections(markdown: string, sections: Record<string, string>, prefix = 'openapi'): string {
  let out = markdown;
  for (const [name, body] of Object.entries(sections)) {
    const open = `<!-- ${prefix}:${name} -->`;
    const close = `<!-- /${prefix}:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`the page lacks the markers ${open} … ${close}`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

type Response = NonNullable<Operation['responses']>[string];

function success(op: Operation): string {
  return Object.entries(op.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .map(([status, r]) => {
      const types = Object.keys(r.content ?? {});
      return types.length ? `${status} ${types.map((t) => (t === 'application/json' ? schemaName(r.content?.[t]?.schema) : t)).join(', ')}` : status;
    })
    .join('; ');
}

function schemaName(schema: { $ref?: string; type?: string; items?: { $ref?: string } } | undefined): string {
  if (schema?.$ref) return `\`${schema.$ref.split('/').pop()}\``;
  if (schema?.type === 'array' && schema.items?.$ref) return `\`${schema.items.$ref.split('/').pop()}[]\``;
  return 'JSON';
}

function payloadOf(op: Operation): string {
  const media = Object.values(op.responses ?? {}).find((r) => r.content?.['text/event-stream'])?.content?.['text/event-stream'];
  const schema = media?.schema;
  if (schema?.oneOf) return schema.oneOf.map((s) => schemaName(s)).join(', or (named event) ');
  return schemaName(schema);
}

function replays(op: Operation): boolean {
  return (op.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'last-event-id');
}

function messagesOf(response: Response): string[] {
  const examples = response.content?.['application/json']?.examples ?? {};
  return Object.values(examples).map((e) => String((e.value as { message?: unknown }).message));
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
