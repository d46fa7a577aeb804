import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { Required } from '../../common/validation/required.decorator.js';

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * A required JSON number above 0 (the `errors` rule texts). Prices and quantities of a position are never 0
 * or negative; a numeric string is refused rather than guessed at, so `"1,5"` cannot become 15.
 */
export function PositiveNumberField(field: string): PropertyDecorator {
  return applyDecorators(
    Required(),
    ValidateBy({
      name: 'isNumber',
      validator: { validate: isNumber, defaultMessage: () => `${field} must be a number` },
    }),
    ValidateBy({
      name: 'isPositive',
      // Only judges numbers; anything else already failed `must be a number`.
      validator: { validate: (v: unknown) => !isNumber(v) || v > 0, defaultMessage: () => `${field} must be a positive number` },
    }),
  );
}

/**
 * A required exchange name, any case, normalised to lower case. Whether it names a configured
 * venue is the ConfiguredExchangePipe's check, which runs after this DTO's and knows the configuration.
 */
export function ExchangeField(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    Required(),
  );
}
