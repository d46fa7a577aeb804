import http from 'node:http';
import Ajv from 'ajv';
import { reasonPhrase } from '../../src/common/errors/error-status.js';
import type { FuzzOperation, FuzzRequest } from './fuzz-requests.js';
import { ECHO_MARK, type OpenApiSchema } from './schema-arbitraries.js';

export interface FuzzResponse {
  status: number;
  contentType: string;
  /** The body as text; a stream's body is not read (the socket is closed once the head is in). */
  body: string;
}

/**
 * 5xx answers the API contract.md itself prescribes, by operation: the `crossing-counts` rule / the `errors` rule make an unparsable
 * crossing-count body a 500 `Failed to parse request body`. Nothing else may answer 5xx.
 */
const CONTRACT_5XX: Record<string, string[]> = { startCrossingCount: ['Failed to parse request body'] };

const STREAM_TYPE = 'text/event-stream';

/** Sends one request on its own connection; a stream is closed as soon as its head arrives. */
export function send(baseUrl: string, req: FuzzRequest): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (req.contentType) headers['Content-Type'] = req.contentType;
    if (req.body !== undefined) headers['Content-Length'] = Buffer.byteLength(req.body);
    const outgoing = http.request(`${baseUrl}${req.url}`, { method: req.method, headers, agent: false });
    outgoing.on('response', (res) => {
      const contentType = res.headers['content-type'] ?? '';
      if (contentType.startsWith(STREAM_TYPE)) {
        resolve({ status: res.statusCode ?? 0, contentType, body: '' });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/**
 * Turns openapi.json's OpenAPI 3.0 schemas into JSON Schema draft-07 for ajv: boolean
 * exclusiveMinimum/Maximum become numbers, an object that lists its members admits no other
 * (the document is the whole contract: an undeclared member is a schema break), and a nullable
 * composition admits null.
 */
function toDraft7(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDraft7);
  if (typeof value !== 'object' || value === null) return value;
  const s = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'example' || k === 'enum' ? v : toDraft7(v)])) as OpenApiSchema & Record<string, unknown>;
  if (s.exclusiveMinimum === true) Object.assign(s, { exclusiveMinimum: s.minimum, minimum: undefined });
  if (s.exclusiveMaximum === true) Object.assign(s, { exclusiveMaximum: s.maximum, maximum: undefined });
  if (s.exclusiveMinimum === false) delete s.exclusiveMinimum;
  if (s.exclusiveMaximum === false) delete s.exclusiveMaximum;
  if (s.type === 'object' && s.properties && s.additionalProperties === undefined) s.additionalProperties = false;
  if (typeof s.$ref === 'string') s.$ref = s.$ref.replace('#/components/schemas/', 'doc#/components/schemas/');
  // A nullable member whose schema is a composition (`nullable` beside `allOf: [$ref]`, as Nest
  // writes a nullable object) is null or the composition, as the generated clients read it.
  if (s.nullable === true && (s.allOf || s.oneOf || s.anyOf)) {
    const { nullable: _nullable, description, ...rest } = s;
    return JSON.parse(JSON.stringify({ description, anyOf: [{ type: 'null' }, rest] })) as unknown;
  }
  return JSON.parse(JSON.stringify(s)) as unknown;
}

/** Judges each answer against openapi.json: documented status, the `errors` rule errors, 2xx bodies of their schema. */
export class FuzzOracle {
  private readonly ajv: Ajv.Ajv;
  private readonly validators = new Map<string, Ajv.ValidateFunction>();

  constructor(schemas: Record<string, OpenApiSchema>) {
    this.ajv = new Ajv({ nullable: true, unknownFormats: 'ignore', format: 'full', allErrors: false });
    // OpenAPI's numeric formats: int32/int64 are integers (the document also says `type: integer`
    // where it means it), double/float any number.
    for (const name of ['int32', 'int64']) this.ajv.addFormat(name, { type: 'number', validate: (n: number) => Number.isInteger(n) });
    for (const name of ['double', 'float']) this.ajv.addFormat(name, { type: 'number', validate: () => true });
    this.ajv.addSchema({ components: { schemas: toDraft7(schemas) } }, 'doc');
  }

  /** Every broken promise of the document in this answer; [] when the answer keeps them all. */
  problems(op: FuzzOperation, res: FuzzResponse): string[] {
    const documented = op.responses?.[String(res.status)];
    if (res.status >= 500 && !this.allowed5xx(op, res)) return [`answered ${res.status}: ${res.body.slice(0, 300)}`];
    if (!documented) return [`answered ${res.status}, not documented for this operation: ${res.body.slice(0, 300)}`];
    if (res.status >= 400) return errorShapeProblems(res);
    if (res.status === 204) return res.body === '' ? [] : ['204 with a body'];
    const [type, media] = Object.entries(documented.content ?? {})[0] ?? [];
    if (!type) return [`${res.status} has no documented content`];
    if (!res.contentType.startsWith(type)) return [`${res.status} answered ${res.contentType}, documented ${type}`];
    if (type !== 'application/json') return [];
    return this.schemaProblems(`${op.operationId}:${res.status}`, media?.schema ?? {}, res.body);
  }

  private allowed5xx(op: FuzzOperation, res: FuzzResponse): boolean {
    const message = parse(res.body) as { message?: unknown } | undefined;
    return (CONTRACT_5XX[op.operationId ?? ''] ?? []).includes(String(message?.message));
  }

  private schemaProblems(key: string, schema: OpenApiSchema, body: string): string[] {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toDraft7(schema) as object);
      this.validators.set(key, validate);
    }
    const value = parse(body);
    if (value === undefined) return [`not JSON: ${body.slice(0, 200)}`];
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `body${e.dataPath} ${e.message ?? ''} (${JSON.stringify(e.params)})`);
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** The `errors` rule: exactly `{ statusCode, message, error }`, the status and its reason phrase, no echoed input. */
function errorShapeProblems(res: FuzzResponse): string[] {
  if (!res.contentType.startsWith('application/json')) return [`${res.status} answered ${res.contentType || 'no content type'}: ${res.body.slice(0, 200)}`];
  const body = parse(res.body) as Record<string, unknown> | undefined;
  const keys = Object.keys(body ?? {}).sort().join();
  if (!body || keys !== 'error,message,statusCode') return [`${res.status} body is not the error body: ${res.body.slice(0, 200)}`];
  const problems: string[] = [];
  if (body.statusCode !== res.status) problems.push(`statusCode ${String(body.statusCode)} in a ${res.status}`);
  if (body.error !== reasonPhrase(res.status)) problems.push(`error ${String(body.error)} in a ${res.status}`);
  if (typeof body.message !== 'string' || body.message === '') problems.push('message is not a text');
  if (res.body.includes(ECHO_MARK)) problems.push(`the message echoes input: ${res.body.slice(0, 200)}`);
  return problems;
}
