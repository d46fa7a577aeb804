import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { parseRfc3339 } from '../../common/time/sao-paulo.js';
import { REQUIRED_CONSTRAINT } from '../../common/validation/required.decorator.js';

/**
 * Field rules of journal operations (rules: journal), shared by the JSON body, the PATCH merge and the
 * CSV import so every path answers with the same `errors` text. Each rule is ONE validator with a
 * value-dependent message, so a field reports exactly one problem.
 */
type Check = (value: unknown, object: Record<string, unknown>) => string | undefined;

function rule(name: string, check: Check): PropertyDecorator {
  const run = (args: ValidationArguments): string | undefined => check(args.value, args.object as Record<string, unknown>);
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (_value: unknown, args: ValidationArguments) => run(args) === undefined,
        defaultMessage: (args: ValidationArguments) => run(args) ?? '',
      },
    });
  };
}

const absent = (v: unknown): boolean => v === undefined || v === null;
export const isPositive = (v: unknown): boolean => typeof v === 'number' && v > 0;

/** `<field> is required` when `when(object)` holds and the value is absent (a `errors` required check). */
export function RequiredWhen(when: (o: Record<string, unknown>) => boolean, message: string): PropertyDecorator {
  return rule(REQUIRED_CONSTRAINT, (v, o) => (when(o) && absent(v) ? message : undefined));
}

export type NumberKind = 'any' | 'positive' | 'nonNegative';

/** A JSON number (never a numeric string); absent is left to the required rules. */
export function NumberRule(field: string, kind: NumberKind): PropertyDecorator {
  return rule('journalNumber', (v) => {
    if (absent(v)) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) return `${field} must be a number`;
    if (kind === 'positive' && v <= 0) return `${field} must be a positive number`;
    if (kind === 'nonNegative' && v < 0) return `${field} must be zero or a positive number`;
    return undefined;
  });
}

const trimmed = (transform: (s: string) => string = (s) => s) => ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? transform(value.trim()) : value;

/** A string normalised by `transform` (after trimming), matching `pattern` when given. */
export function TextRule(
  field: string,
  opts: { max: number; pattern?: RegExp; patternMessage?: string; transform?: (s: string) => string; trim?: boolean },
): PropertyDecorator {
  return applyDecorators(
    Transform(opts.trim === false ? ({ value }: { value: unknown }) => value : trimmed(opts.transform)),
    rule('journalText', (v) => {
      if (absent(v)) return undefined;
      if (typeof v !== 'string') return `${field} must be a string`;
      if (v.length > opts.max) return `${field} must be at most ${opts.max} characters`;
      if (opts.pattern && !opts.pattern.test(v)) return opts.patternMessage;
      return undefined;
    }),
  );
}

/** One of `values`. */
export function OneOfRule(field: string, values: readonly string[]): PropertyDecorator {
  return applyDecorators(
    Transform(trimmed((s) => s.toLowerCase())),
    rule('journalOneOf', (v) =>
      absent(v) || (typeof v === 'string' && values.includes(v)) ? undefined : `${field} must be one of ${values.join(', ')}`,
    ),
  );
}

/** An RFC 3339 timestamp with an offset, turned into a Date. */
export function TimestampRule(field: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      // Blank is "not given": the required rules (or the default) decide.
      return value.trim() === '' ? undefined : (parseRfc3339(value.trim()) ?? { invalid: value });
    }),
    rule('journalTimestamp', (v) =>
      absent(v) || v instanceof Date ? undefined : `${field} must be an RFC 3339 timestamp`,
    ),
  );
}

export function BooleanRule(field: string): PropertyDecorator {
  return rule('journalBoolean', (v) => (absent(v) || typeof v === 'boolean' ? undefined : `${field} must be true or false`));
}

/** A custom cross-field rule (runs only when the value is present). */
export function CrossRule(check: Check): PropertyDecorator {
  return rule('journalCross', (v, o) => (absent(v) ? undefined : check(v, o)));
}

/** Query strings: an empty parameter (`?status=`) means "not given". */
export const EmptyAsAbsent = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
