import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { MARKETS } from '../../market-model/exchanges.js';
import { toCompactTicker } from '../../market-model/ticker.js';

/** The `limits` rule: cryptos per looker. */
export const MAX_LOOKER_CRYPTOS = 6;
export const MAX_LOOKER_NAME_LENGTH = 100;

export const MAX_CRYPTOS_MESSAGE = `maximum ${MAX_LOOKER_CRYPTOS} cryptos allowed`;

/** Stands in for an entry that is not a ticker, so the validator can report it after the count. */
const INVALID_TICKER = Symbol('invalid ticker');

const normaliseEntry = (entry: unknown): string | typeof INVALID_TICKER =>
  (typeof entry === 'string' ? toCompactTicker(entry) : null) ?? INVALID_TICKER;

function cryptosProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'cryptos must be an array of tickers';
  // The `lookers` rule: the limit counts what was sent, before duplicates are removed.
  if (value.length > MAX_LOOKER_CRYPTOS) return MAX_CRYPTOS_MESSAGE;
  if (value.some((entry) => entry === INVALID_TICKER)) return 'ticker is invalid';
  return null;
}

/**
 * Optional list of tickers in either `tickers` form, normalised to `BASEQUOTE`; more than six is
 * `maximum 6 cryptos allowed`, any entry that is neither form `ticker is invalid`.
 * Duplicates are kept here (the limit counts them) and removed by `uniqueCryptos`.
 */
export function CryptosField(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(normaliseEntry) : value)),
    IsOptional(),
    ValidateBy({
      name: 'isLookerCryptos',
      validator: {
        validate: (value: unknown) => cryptosProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => cryptosProblem(args?.value) ?? 'cryptos is invalid',
      },
    }),
  );
}

/** The `lookers` rule: first occurrence kept, order preserved. */
export function uniqueCryptos(cryptos: readonly string[] | null | undefined): string[] {
  return [...new Set(cryptos ?? [])];
}

function nameProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'name must be a string';
  if (value.length > MAX_LOOKER_NAME_LENGTH) return `name must be at most ${MAX_LOOKER_NAME_LENGTH} characters`;
  return null;
}

/** Optional display name, trimmed; blank means no name (null). */
export function LookerNameField(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value)),
    IsOptional(),
    ValidateBy({
      name: 'isLookerName',
      validator: {
        validate: (value: unknown) => nameProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => nameProblem(args?.value) ?? 'name is invalid',
      },
    }),
  );
}

/** The `lookers` rule: `SPOT` (default) or `FUTURES`, any case. */
export function MarketField(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value)),
    IsOptional(),
    IsIn(MARKETS, { message: 'market must be SPOT or FUTURES' }),
  );
}
