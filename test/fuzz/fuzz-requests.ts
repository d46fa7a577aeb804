import fc from 'fast-check';
import { type FuzzPools, hostileString, mutatedValue, type OpenApiSchema, validValue } from './schema-arbitraries.js';

export interface OperationParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: OpenApiSchema;
}

export interface MediaType {
  schema?: OpenApiSchema;
  example?: unknown;
}

export interface FuzzOperation {
  method: string;
  path: string;
  operationId?: string;
  parameters?: OperationParameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

/** One generated request, as printable as fast-check's counterexample report needs. */
export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded (lone surrogates as their WTF-8 bytes). */
  url: string;
  contentType?: string;
  body?: string;
}

/**
 * Sizes kept under what Node's HTTP parser itself refuses (16 KiB of headers, a 431 with no body
 * before any route runs): the URL carries at most a few KiB, bodies go past the 1 MiB limit.
 */
export interface FuzzSizes {
  hugeInUrl: number;
  hugeInBody: number;
}

/**
 * Percent-encodes every UTF-16 unit: pairs as UTF-8, a lone surrogate as the three bytes of its
 * generalised UTF-8 form (encodeURIComponent throws on it; a hostile client does not care).
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text.charAt(i));
    }
  }
  return out;
}

/** Node answers a bare 431 (no route runs) past 16 KiB of headers: a URL stays under it. */
const MAX_URL_BYTES = 14_000;

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** A path or query value: mostly one the schema accepts, sometimes hostile, a number at an edge, or empty. */
function parameterValue(p: OperationParameter, schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes, hostile: boolean): fc.Arbitrary<string> {
  if (!hostile) return validValue(p.schema ?? {}, schemas, pools).map(asText);
  return fc.oneof(
    { arbitrary: validValue(p.schema ?? {}, schemas, pools).map(asText), weight: 6 },
    { arbitrary: hostileString(sizes.hugeInUrl), weight: 2 },
    { arbitrary: fc.constantFrom('-1', '0', '1.5', '1e999', '99999999999999999999', '-0', '0x1f', 'NaN'), weight: 1 },
  );
}

function queryArbitrary(params: OperationParameter[], schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes, hostile: boolean): fc.Arbitrary<string> {
  const valid = (p: OperationParameter): fc.Arbitrary<[string, string][]> => {
    const given = parameterValue(p, schemas, pools, sizes, false).map((v): [string, string][] => [[p.name, v]]);
    return p.required ? given : fc.oneof(given, fc.constant<[string, string][]>([]));
  };
  if (!hostile) return fc.tuple(...params.map(valid)).map((chosen) => chosen.flat().map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'));
  const one = (p: OperationParameter): fc.Arbitrary<[string, string][]> =>
    fc.oneof(
      { arbitrary: parameterValue(p, schemas, pools, sizes, true).map((v): [string, string][] => [[p.name, v]]), weight: p.required ? 12 : 4 },
      { arbitrary: fc.constant<[string, string][]>([]), weight: p.required ? 1 : 4 },
      { arbitrary: fc.constant<[string, string][]>([[p.name, '']]), weight: 1 },
      { arbitrary: fc.tuple(parameterValue(p, schemas, pools, sizes, true), parameterValue(p, schemas, pools, sizes, true)).map(([a, b]): [string, string][] => [[p.name, a], [p.name, b]]), weight: 1 },
    );
  const extra = fc.array(fc.tuple(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), hostileString(64)), hostileString(64)), { maxLength: 2 });
  return fc.tuple(fc.tuple(...params.map(one)), fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, { arbitrary: extra, weight: 1 })).map(([chosen, extras]) =>
    [...chosen.flat(), ...extras].map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'),
  );
}

function pathArbitrary(op: FuzzOperation, schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes, hostile: boolean): fc.Arbitrary<string> {
  const inPath = (op.parameters ?? []).filter((p) => p.in === 'path');
  // An empty segment is another URL (`/operations/` is the list route), not a bad id.
  const segment = (p: OperationParameter): fc.Arbitrary<string> => parameterValue(p, schemas, pools, sizes, hostile).filter((v) => v !== '');
  return fc.tuple(...inPath.map(segment)).map((values) =>
    inPath.reduce((path, p, i) => path.replace(`{${p.name}}`, percentEncode(values[i] ?? '')), op.path),
  );
}

const JSON_TYPES = new Set(['application/json', 'application/x-ndjson']);

/** Raw JSON texts a parser or a guard must refuse: malformed, non-finite, deeply nested. */
const rawJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{"a":', '{', 'nul', '"', '{"x":1e999}', '[1e999]', '{"x":-1e999}', '{"__proto__":{"polluted":1}}', '\ufeff{}', '[]', '0', '""'),
  fc.integer({ min: 9, max: 60_000 }).map((depth) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc.integer({ min: 9, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
);

function serialise(type: string, value: unknown): string {
  if (type === 'application/x-ndjson' && Array.isArray(value)) return value.map((row) => JSON.stringify(row)).join('\n');
  return JSON.stringify(value) ?? 'null';
}

/** Body and content type: the documented type with a valid or mutated body, or the wrong type, or a raw text. */
function bodyArbitrary(op: FuzzOperation, schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes, hostile: boolean): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body'>> {
  const content = Object.entries(op.requestBody?.content ?? {});
  if (!hostile) return validBody(content, schemas, pools, sizes);
  const wrongType = fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data');
  const stray = fc.oneof(
    fc.constant({}),
    fc.tuple(fc.constantFrom('application/json', 'text/plain'), rawJsonText).map(([contentType, body]) => ({ contentType, body })),
  );
  if (content.length === 0) return fc.oneof({ arbitrary: fc.constant({}), weight: 8 }, { arbitrary: stray, weight: 1 });
  const perType = content.map(([type, media]) => {
    const schema = media.schema ?? {};
    if (!JSON_TYPES.has(type)) return textBody(type, media, sizes);
    return fc.oneof(
      { arbitrary: validValue(schema, schemas, pools).map((v) => ({ contentType: type, body: serialise(type, v) })), weight: 5 },
      { arbitrary: mutatedValue(schema, schemas, pools, sizes.hugeInBody).map((v) => ({ contentType: type, body: serialise(type, v) })), weight: 4 },
      { arbitrary: rawJsonText.map((body) => ({ contentType: type, body })), weight: 1 },
      { arbitrary: fc.tuple(wrongType, validValue(schema, schemas, pools)).map(([contentType, v]) => ({ contentType, body: serialise(type, v) })), weight: 1 },
      { arbitrary: validValue(schema, schemas, pools).map((v) => ({ body: serialise(type, v) })), weight: 1 },
    );
  });
  return fc.oneof({ arbitrary: fc.oneof(...perType), weight: 12 }, { arbitrary: stray, weight: 1 });
}

/** A body a client that read the document sends: the documented type, a valid value (a text body: the CSV generator). */
function validBody(content: [string, MediaType][], schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body'>> {
  if (content.length === 0) return fc.constant({});
  return fc.oneof(
    ...content.map(([type, media]) =>
      JSON_TYPES.has(type) ? validValue(media.schema ?? {}, schemas, pools).map((v) => ({ contentType: type, body: serialise(type, v) })) : textBody(type, media, sizes),
    ),
  );
}

/** A text body (CSV): the documented example with rows of hostile cells, line ends of every kind. */
function textBody(type: string, media: MediaType, sizes: FuzzSizes): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'body'>> {
  const header = asText(media.example ?? media.schema?.example ?? '').split(/\r?\n/)[0] ?? '';
  const columns = header.split(',').length;
  const cell = fc.oneof(
    { arbitrary: fc.constantFrom('', '1', '0', '-1', 'BTC', 'binance', 'other', 'closed', '2026-01-01T00:00:00Z', 'false', '1e999', '"'), weight: 6 },
    { arbitrary: hostileString(sizes.hugeInBody).map((s) => `"${s.replaceAll('"', '""')}"`), weight: 1 },
  );
  const row = fc.array(cell, { minLength: columns - 2, maxLength: columns + 1 }).map((cells) => cells.join(','));
  return fc
    .tuple(fc.array(row, { maxLength: 4 }), fc.constantFrom('\n', '\r\n', '\r'), fc.oneof(fc.constant(type), fc.constantFrom('application/json', 'text/plain')))
    .map(([rows, eol, contentType]) => ({ contentType, body: [header, ...rows].join(eol) }));
}

/** Every request shape the operation can be sent, from its entry in openapi.json alone. */
export function requestArbitrary(op: FuzzOperation, schemas: Record<string, OpenApiSchema>, pools: FuzzPools, sizes: FuzzSizes): fc.Arbitrary<FuzzRequest> {
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  // Half the requests are a well-behaved client's (so 2xx answers and their schemas are reached), half hostile.
  return fc
    .boolean()
    .chain((hostile) =>
      fc.tuple(pathArbitrary(op, schemas, pools, sizes, hostile), queryArbitrary(query, schemas, pools, sizes, hostile), bodyArbitrary(op, schemas, pools, sizes, hostile)),
    )
    .map(([path, q, body]) => ({ method: op.method.toUpperCase(), url: q ? `${path}?${q}` : path, ...body }))
    .filter((req) => req.url.length <= MAX_URL_BYTES);
}
