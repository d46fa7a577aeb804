import { registerDecorator, type ValidationOptions } from 'class-validator';

export const REQUIRED_CONSTRAINT = 'required';

/** Present, not null, and for strings not blank. Message: `<field> is required` unless given. */
export function Required(message?: string, options: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: REQUIRED_CONSTRAINT,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: message ?? `${String(propertyName)} is required`, ...options },
      validator: {
        validate: (value: unknown) =>
          value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === ''),
      },
    });
  };
}
