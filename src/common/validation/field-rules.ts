import { Transform } from 'class-transformer';
import { IsEmail, IsString } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { Required } from './required.decorator.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const trimLower = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/**
 * A required e-mail, trimmed and lower-cased so one mailbox is one user.
 * `requiredMessage` overrides `<field> is required` where the API contract words it differently.
 */
export function EmailField(requiredMessage?: string): PropertyDecorator {
  return applyDecorators(
    Transform(trimLower),
    Required(requiredMessage),
    IsString({ message: 'email is invalid' }),
    IsEmail({}, { message: 'email is invalid' }),
  );
}

/** A required, trimmed string. */
export function RequiredString(field: string): PropertyDecorator {
  return applyDecorators(Transform(trim), Required(), IsString({ message: `${field} must be a string` }));
}
