import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { toCanonicalTicker, toCompactTicker } from '../../market-model/ticker.js';
import { Required } from './required.decorator.js';

/**
 * A required ticker in either `tickers` form, any case, normalised to `BASE-QUOTE` ('canonical') or
 * `BASEQUOTE` ('compact'). Anything else: `ticker is invalid`.
 */
export function TickerField(form: 'canonical' | 'compact', field = 'ticker'): PropertyDecorator {
  const normalise = form === 'canonical' ? toCanonicalTicker : toCompactTicker;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? (normalise(value) ?? { invalid: value }) : value)),
    Required(`${field} is required`),
    ValidateBy({
      name: 'isTicker',
      validator: { validate: (value: unknown) => typeof value === 'string', defaultMessage: () => `${field} is invalid` },
    }),
  );
}
