import { ApiParam, ApiProperty } from '@nestjs/swagger';
import { EXCHANGE_NAMES } from '../../market-model/exchanges.js';

/**
 * One way to declare what a DTO member really is on the wire. Members that the service reads as
 * raw input (`unknown`, checked by a parser in the `errors` rule's order) or whose TypeScript type is a union
 * reach Swagger as `Object`, which Swagger UI and generated clients read as "a JSON object"; these
 * helpers always give the type, the format or pattern the API contract fixes, and whether it is required.
 * Query DTOs, request bodies and response DTOs use the same helpers.
 */
export interface FieldOptions {
  description?: string;
  example?: unknown;
  /** Default true, as in Nest; `false` for an optional member. */
  required?: boolean;
  nullable?: boolean;
  default?: unknown;
  deprecated?: boolean;
}

export interface StringOptions extends FieldOptions {
  format?: 'date' | 'date-time' | 'uuid' | 'email' | 'int64';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

export interface NumberOptions extends FieldOptions {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
}

/** `YYYY-MM-DD`. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** The `tickers` rule input: `BASE-QUOTE` or `BASEQUOTE`, any case. */
export const TICKER_INPUT_PATTERN = '^[A-Za-z0-9]{1,20}(-?[A-Za-z0-9]{2,10})$';
/** The `tickers` rule canonical form, as the service answers: `BTC-USDT`. */
export const TICKER_CANONICAL_PATTERN = '^[A-Z0-9]{1,20}-[A-Z0-9]{2,10}$';
/** Lookers and favorites (rules: lookers, favorites): `BTCUSDT`. */
export const TICKER_COMPACT_PATTERN = '^[A-Z0-9]{3,30}$';

export const EXAMPLE_EMAIL = 'trader@example.com';
export const EXAMPLE_UUID = '5b0f6a7e-8a53-4b8e-9f3e-0d5c3f3b2a11';

function property(type: 'string' | 'integer' | 'number' | 'boolean', options: StringOptions & NumberOptions): PropertyDecorator {
  const { required = true, ...rest } = options;
  return ApiProperty({ type, required, ...rest });
}

export const ApiField = {
  string: (options: StringOptions = {}): PropertyDecorator => property('string', options),
  integer: (options: NumberOptions = {}): PropertyDecorator => property('integer', options),
  /** A JSON number (the API contract `float`). */
  number: (options: NumberOptions = {}): PropertyDecorator => property('number', options),
  boolean: (options: FieldOptions = {}): PropertyDecorator => property('boolean', options),
  /** Unix milliseconds (the API contract `int64`). */
  unixMillis: (options: FieldOptions = {}): PropertyDecorator =>
    property('integer', { format: 'int64', example: 1763769600000, ...options }),
  /** RFC 3339 timestamp. */
  dateTime: (options: FieldOptions = {}): PropertyDecorator =>
    property('string', { format: 'date-time', example: '2026-03-01T12:00:00.000Z', ...options }),
  /** A calendar day, `YYYY-MM-DD`. */
  date: (options: FieldOptions = {}): PropertyDecorator =>
    property('string', { format: 'date', pattern: DATE_PATTERN, example: '2026-03-01', ...options }),
  email: (options: FieldOptions = {}): PropertyDecorator =>
    property('string', { format: 'email', example: EXAMPLE_EMAIL, ...options }),
  uuid: (options: FieldOptions = {}): PropertyDecorator =>
    property('string', { format: 'uuid', example: EXAMPLE_UUID, ...options }),
  /**
   * A ticker: `input` accepts either `tickers` form in any case; `canonical` (`BTC-USDT`) and `compact`
   * (`BTCUSDT`) are the forms the service answers with.
   */
  ticker: (form: 'input' | 'canonical' | 'compact', options: FieldOptions = {}): PropertyDecorator => {
    const pattern = { input: TICKER_INPUT_PATTERN, canonical: TICKER_CANONICAL_PATTERN, compact: TICKER_COMPACT_PATTERN }[form];
    return property('string', { pattern, example: form === 'compact' ? 'BTCUSDT' : 'BTC-USDT', ...options });
  },
  /** One of a fixed list of strings (listed as an `enum`). */
  enum: (values: readonly string[], options: FieldOptions = {}): PropertyDecorator => {
    const { required = true, ...rest } = options;
    return ApiProperty({ enum: [...values], required, example: values[0], ...rest });
  },
  /** One of the five exchanges (rules: tickers). */
  exchange: (options: FieldOptions = {}): PropertyDecorator => ApiField.enum(EXCHANGE_NAMES, options),
  /** An array of strings. */
  strings: (options: StringOptions & { maxItems?: number; items?: Omit<StringOptions, keyof FieldOptions> } = {}): PropertyDecorator => {
    const { required = true, items = {}, ...rest } = options;
    return ApiProperty({ type: 'array', items: { type: 'string', ...items }, required, ...rest });
  },
};

/** A path parameter holding a stored id (a UUID); an id that is not one is answered 404. */
export function ApiIdParam(description: string, name = 'id'): MethodDecorator {
  return ApiParam({ name, description, required: true, schema: { type: 'string', format: 'uuid', example: EXAMPLE_UUID } });
}
