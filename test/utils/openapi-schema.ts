/**
 * Checks a JSON value against an OpenAPI 3.0 schema of openapi.json: types, integer, nullable,
 * enum, required members, no undeclared members where the schema lists them, arrays, maps,
 * oneOf, and the formats the document uses. Enough to catch a document that says one thing while
 * the service answers another.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  nullable?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^@\s]+@[^@\s]+$/,
};

export function schemaErrors(schema: JsonSchema, value: unknown, schemas: Record<string, JsonSchema>, at = '$'): string[] {
  if (schema.$ref) return schemaErrors(schemas[schema.$ref.split('/').pop() ?? ''] ?? {}, value, schemas, at);
  if (schema.allOf) return schema.allOf.flatMap((s) => schemaErrors(s, value, schemas, at));
  if (value === null) return schema.nullable ? [] : [`${at}: null is not allowed`];
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((s) => schemaErrors(s, value, schemas, at).length === 0).length;
    return matches >= 1 ? [] : [`${at}: matches none of oneOf`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`];
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return [`${at}: not a string`];
      if (schema.format && FORMATS[schema.format] && !FORMATS[schema.format].test(value)) return [`${at}: ${value} is not ${schema.format}`];
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) return [`${at}: ${value} does not match ${schema.pattern}`];
      return [];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: not a number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: not a boolean`];
    case 'array':
      if (!Array.isArray(value)) return [`${at}: not an array`];
      return value.flatMap((v, i) => schemaErrors(schema.items ?? {}, v, schemas, `${at}[${i}]`));
    case 'object':
      return objectErrors(schema, value, schemas, at);
    case undefined:
      return schema.enum ? [] : [`${at}: schema without a type`];
    default:
      return [`${at}: unknown type ${schema.type}`];
  }
}

function objectErrors(schema: JsonSchema, value: unknown, schemas: Record<string, JsonSchema>, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not an object`];
  const record = value as Record<string, unknown>;
  const errors = (schema.required ?? []).filter((k) => !(k in record)).map((k) => `${at}.${k}: missing`);
  for (const [key, member] of Object.entries(record)) {
    const declared = schema.properties?.[key];
    if (declared) errors.push(...schemaErrors(declared, member, schemas, `${at}.${key}`));
    else if (typeof schema.additionalProperties === 'object') errors.push(...schemaErrors(schema.additionalProperties, member, schemas, `${at}.${key}`));
    else errors.push(`${at}.${key}: not in the schema`);
  }
  return errors;
}
