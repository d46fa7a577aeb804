import type { OpenAPIObject } from '@nestjs/swagger';
import { reasonPhrase } from '../errors/error-status.js';

/**
 * What makes the document usable by Swagger UI and generated clients as it stands, checked over
 * every operation (new ones included, with no code per operation): real types, method-like
 * operation ids, declared tags, the `errors` rule error bodies with their texts, examples for request bodies.
 * Returns one line per problem; [] when the document is clean.
 */
export function findDocumentProblems(document: OpenAPIObject): string[] {
  const problems: string[] = [];
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const tags = new Set((document.tags ?? []).filter((t) => t.description).map((t) => t.name));
  const ids = new Map<string, string>();
  for (const { method, path, op } of operationsOf(document)) {
    const where = `${method.toUpperCase()} ${path}`;
    const report = (text: string): void => void problems.push(`${where}: ${text}`);
    checkIdentity(op, where, ids, tags, report);
    for (const p of op.parameters ?? []) {
      if (!p.schema || !isTyped(p.schema, schemas) || isObjectLike(p.schema, schemas)) {
        report(`parameter ${p.name} has no scalar type: declare it with ApiField (src/common/openapi/api-field.decorator.ts)`);
      }
      if (p.in === 'path' && p.example === undefined && p.schema?.example === undefined) report(`path parameter ${p.name} has no example`);
      if (p.required && p.schema?.example === undefined && p.example === undefined) report(`required parameter ${p.name} has no example`);
    }
    checkRequestBody(op, schemas, report);
    checkResponses(op, schemas, report);
  }
  for (const [name, schema] of Object.entries(schemas)) {
    walkSchema(schema, `schema ${name}`, schemas, (text) => problems.push(text));
  }
  return problems;
}

export interface Schema {
  type?: string;
  $ref?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

export function operationsOf(document: OpenAPIObject): Array<{ method: string; path: string; op: Operation }> {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (['get', 'put', 'post', 'delete', 'patch'].includes(method)) out.push({ method, path, op });
    }
  }
  return out;
}

/** A stream answers `text/event-stream` on success. */
export function isStream(op: Operation): boolean {
  return Object.entries(op.responses ?? {}).some(([status, r]) => status.startsWith('2') && r.content?.['text/event-stream']);
}

function checkIdentity(op: Operation, where: string, ids: Map<string, string>, tags: Set<string>, report: (t: string) => void): void {
  const id = op.operationId ?? '';
  if (!/^[a-z][A-Za-z0-9]*$/.test(id)) {
    report(`operationId "${id}" is not a method name: set @ApiOperation({ operationId: 'verbNoun' })`);
  } else if (ids.has(id)) {
    report(`operationId ${id} is also used by ${ids.get(id)}`);
  }
  ids.set(id, where);
  if (!op.summary) report('no summary');
  if (!op.tags?.length || !op.tags.every((t) => tags.has(t))) report(`tags ${JSON.stringify(op.tags ?? [])} are not all in API_TAGS (openapi-document.ts)`);
}

function checkRequestBody(op: Operation, schemas: Record<string, Schema>, report: (t: string) => void): void {
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    if (!media.schema || !isTyped(media.schema, schemas)) report(`request body ${type} has no typed schema`);
    else if (media.example === undefined && media.examples === undefined && !hasExample(media.schema, schemas)) {
      report(`request body ${type} has no example: give every required member an example`);
    }
  }
}

function checkResponses(op: Operation, schemas: Record<string, Schema>, report: (t: string) => void): void {
  const statuses = Object.keys(op.responses ?? {});
  if (!statuses.some((s) => s.startsWith('2'))) report('no success response');
  if (!statuses.some((s) => s.startsWith('4'))) report('no 4xx response: document its errors with ApiErrors');
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const code = Number(status);
    if (code >= 400) {
      const media = response.content?.['application/json'];
      if (media?.schema?.$ref !== '#/components/schemas/ErrorResponseDto') {
        report(`${status} is not the error body (ErrorResponseDto): document it with ApiErrors`);
        continue;
      }
      const values = Object.values(media.examples ?? {}).map((e) => e.value as Record<string, unknown>);
      if (values.length === 0) report(`${status} lists no message`);
      for (const v of values) {
        if (v.statusCode !== code || v.error !== reasonPhrase(code) || typeof v.message !== 'string') {
          report(`${status} example ${JSON.stringify(v)} is not an error body of that status`);
        }
      }
    } else {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        if (!media.schema || !isTyped(media.schema, schemas)) report(`${status} ${type} has no typed schema`);
      }
    }
  }
}

function resolve(schema: Schema, schemas: Record<string, Schema>): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) s = schemas[s.$ref.replace('#/components/schemas/', '')] ?? {};
  return s;
}

function isTyped(schema: Schema, schemas: Record<string, Schema>): boolean {
  const s = resolve(schema, schemas);
  if (s.allOf || s.oneOf || s.anyOf) return [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].every((x) => isTyped(x, schemas));
  if (s.enum) return true;
  if (s.type === 'object') return Object.keys(s.properties ?? {}).length > 0 || typeof s.additionalProperties === 'object';
  if (s.type === 'array') return s.items !== undefined && isTyped(s.items, schemas);
  return typeof s.type === 'string';
}

function isObjectLike(schema: Schema, schemas: Record<string, Schema>): boolean {
  const s = resolve(schema, schemas);
  return s.type === 'object' || (s.type === 'array' && s.items !== undefined && isObjectLike(s.items, schemas));
}

function hasExample(schema: Schema, schemas: Record<string, Schema>): boolean {
  if (schema.example !== undefined) return true;
  const s = resolve(schema, schemas);
  if (s.example !== undefined) return true;
  if (s.type === 'array') return s.items !== undefined && hasExample(s.items, schemas);
  if (s.properties) return (s.required ?? []).every((name) => s.properties?.[name] && hasExample(s.properties[name], schemas));
  return false;
}

function walkSchema(schema: Schema, where: string, schemas: Record<string, Schema>, report: (t: string) => void): void {
  if (schema.$ref) {
    if (!isTyped(schema, schemas)) report(`${where}: refers to an empty schema ${schema.$ref}`);
    return;
  }
  if (!isTyped(schema, schemas)) report(`${where}: no type (an Object or empty schema): declare it with ApiField`);
  if (schema.additionalProperties === true) report(`${where}: additionalProperties true`);
  for (const [name, member] of Object.entries(schema.properties ?? {})) walkSchema(member, `${where}.${name}`, schemas, report);
  if (schema.items) walkSchema(schema.items, `${where}[]`, schemas, report);
  if (typeof schema.additionalProperties === 'object') walkSchema(schema.additionalProperties, `${where}{}`, schemas, report);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) walkSchema(part, where, schemas, report);
}
