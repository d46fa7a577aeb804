import fc from 'fast-check';

/** The parts of an OpenAPI 3.0 schema the generators read (openapi.json uses no more). */
export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  example?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  maxLength?: number;
  maxItems?: number;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  additionalProperties?: boolean | OpenApiSchema;
  oneOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
}

/**
 * Hostile strings carry this mark, so a response that repeats one (an error message echoing
 * input) is caught by looking for the mark.
 */
export const ECHO_MARK = 'ZQXJ';

/**
 * What the generators draw from besides the schema: a few e-mail addresses (so that what one
 * request creates, another can list, update or delete) and the ids 2xx answers handed out.
 */
export interface FuzzPools {
  emails: readonly string[];
  ids: string[];
}

const deref = (schema: OpenApiSchema, schemas: Record<string, OpenApiSchema>): OpenApiSchema => {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) s = schemas[s.$ref.split('/').pop() ?? ''] ?? {};
  return s;
};

/** Strings no handler may choke on: lone surrogates, NUL, control and bidi characters, huge ones. */
export function hostileString(maxHuge: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      `${ECHO_MARK}\ud800`, `a\udc00${ECHO_MARK}`, `${ECHO_MARK}\u0000`, '\u0000', '', ' ', '\t\r\n', `\ud83d${ECHO_MARK}`,
      `${ECHO_MARK}' OR 1=1 --`, `<script>${ECHO_MARK}</script>`, 'NaN', 'Infinity', '-1', '1e999', 'null', 'true', '0x10',
      `\u202e${ECHO_MARK}`, '%00', '%', '../../etc/passwd', '\ufeff', '\uffff', '💥'.repeat(3),
    ),
    fc.string({ unit: 'binary', maxLength: 24 }).map((s) => `${ECHO_MARK}${s}`),
    fc.integer({ min: Math.min(1_000, maxHuge), max: maxHuge }).map((n) => `${ECHO_MARK}${'é'.repeat(n)}`),
  );
}

/** Numbers at the edges: huge, tiny, negative, non-integer, beyond 2^53. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 63), 1e21, 99_999_999_999),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, shallow, with hostile leaves. */
export function hostileValue(maxHuge: number): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(maxHuge), hostileNumber, fc.boolean(), fc.constant(null));
  return fc.oneof(
    { arbitrary: leaf, weight: 6 },
    { arbitrary: fc.array(leaf, { maxLength: 3 }), weight: 1 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 3 }), weight: 1 },
  );
}

/** A value the schema accepts, as a client that read the document would send it. */
export function validValue(schema: OpenApiSchema, schemas: Record<string, OpenApiSchema>, pools: FuzzPools): fc.Arbitrary<unknown> {
  const s = deref(schema, schemas);
  const base = validNonNull(s, schemas, pools);
  return s.nullable ? fc.oneof({ arbitrary: base, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
}

function validNonNull(s: OpenApiSchema, schemas: Record<string, OpenApiSchema>, pools: FuzzPools): fc.Arbitrary<unknown> {
  const variants = [...(s.oneOf ?? []), ...(s.anyOf ?? [])];
  if (variants.length > 0) return fc.oneof(...variants.map((v) => validValue(v, schemas, pools)));
  if (s.allOf?.length) return validValue(s.allOf[0], schemas, pools);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type ?? '') {
    case 'string':
      return withExample(s, validString(s, pools));
    case 'integer':
      return withExample(s, fc.integer({ min: Math.ceil(lower(s, 1)), max: Math.floor(upper(s, 1)) }));
    case 'number':
      return withExample(s, fc.double({ min: lower(s, 1e-6), max: upper(s, 1e-6), noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(s.items ?? {}, schemas, pools), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object':
      return validObject(s, schemas, pools);
    default:
      return fc.constant(s.example ?? null);
  }
}

/** The documented example is what a client most often sends: drawn as often as anything else. */
function withExample<T>(s: OpenApiSchema, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return s.example === undefined ? arbitrary : fc.oneof(fc.constant(s.example), arbitrary);
}

function lower(s: OpenApiSchema, step: number): number {
  if (s.minimum === undefined) return -1_000_000;
  return s.exclusiveMinimum ? s.minimum + step : s.minimum;
}

function upper(s: OpenApiSchema, step: number): number {
  if (s.maximum === undefined) return 1_000_000;
  return s.exclusiveMaximum ? s.maximum - step : s.maximum;
}

function validString(s: OpenApiSchema, pools: FuzzPools): fc.Arbitrary<string> {
  const day = fc.date({ min: new Date('2025-06-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true });
  switch (s.format ?? '') {
    case 'email':
      return fc.constantFrom(...pools.emails);
    case 'date-time':
      return day.map((d) => d.toISOString());
    case 'date':
      return day.map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.oneof(fc.nat().map((i) => pools.ids[i % Math.max(1, pools.ids.length)] ?? '00000000-0000-4000-8000-000000000000'), fc.uuid());
    default:
      break;
  }
  const maxLength = Math.min(s.maxLength ?? 24, 24);
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= (s.maxLength ?? Infinity));
  return fc.string({ maxLength });
}

function validObject(s: OpenApiSchema, schemas: Record<string, OpenApiSchema>, pools: FuzzPools): fc.Arbitrary<unknown> {
  const members = Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, member]) => [name, validValue(member, schemas, pools)]));
  if (Object.keys(members).length === 0 && typeof s.additionalProperties === 'object') {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), validValue(s.additionalProperties, schemas, pools), { maxKeys: 3 });
  }
  return fc.record(members, { requiredKeys: s.required ?? [] });
}

/**
 * A value the schema should refuse, or that probes its edges: the valid value with one member
 * dropped, replaced by a hostile value or joined by an undeclared one, or a hostile value whole.
 */
export function mutatedValue(schema: OpenApiSchema, schemas: Record<string, OpenApiSchema>, pools: FuzzPools, maxHuge: number): fc.Arbitrary<unknown> {
  const s = deref(schema, schemas);
  const valid = validValue(s, schemas, pools);
  if (s.type === 'array' && s.items) {
    return fc.oneof(
      fc.array(mutatedValue(s.items, schemas, pools, maxHuge), { minLength: 1, maxLength: 3 }),
      hostileValue(maxHuge),
    );
  }
  if (s.type !== 'object' || !s.properties) return hostileValue(maxHuge);
  const names = Object.keys(s.properties);
  const required = s.required ?? [];
  const record = valid.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
  return fc.oneof(
    fc.tuple(record, fc.constantFrom(...(required.length ? required : names))).map(([v, drop]) => omit(v, drop)),
    fc.tuple(record, fc.constantFrom(...names), hostileValue(maxHuge)).map(([v, name, bad]) => ({ ...v, [name]: bad })),
    fc.tuple(record, fc.string({ minLength: 1, maxLength: 12 }), hostileValue(maxHuge)).map(([v, name, extra]) => ({ ...v, [name]: extra })),
    hostileValue(maxHuge),
  );
}

function omit(value: Record<string, unknown>, name: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[name];
  return copy;
}
