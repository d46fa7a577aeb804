import { type ArgumentMetadata, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError, INVALID_REQUEST_BODY } from '../errors/app-error.js';
import { REQUIRED_CONSTRAINT } from './required.decorator.js';

/**
 * The global pipe: whitelists and transforms DTOs, and reports exactly one message, the first
 * failing field in declaration order (DTOs declare fields in the order of the endpoint's documented errors).
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      stopAtFirstError: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors: ValidationError[]) => AppError.invalid(firstMessage(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isDtoClass(metadata.metatype)) {
      if (value === undefined || value === null || (typeof value === 'string' && value === '')) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw AppError.invalid(INVALID_REQUEST_BODY);
    }
    return super.transform(value, metadata);
  }
}

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  return (
    typeof metatype === 'function' &&
    ![String, Number, Boolean, Array, Object].includes(metatype as never)
  );
}

/**
 * The `errors` rule: required-field checks come first, in field order; then the first other failure.
 */
export function firstMessage(errors: ValidationError[]): string {
  return firstRequired(errors) ?? firstOther(errors) ?? INVALID_REQUEST_BODY;
}

function firstRequired(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const required = error.constraints?.[REQUIRED_CONSTRAINT] ?? (error.children && firstRequired(error.children));
    if (required) return required;
  }
  return undefined;
}

function firstOther(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const message = Object.values(error.constraints ?? {})[0] ?? (error.children && firstOther(error.children));
    if (message) return message;
  }
  return undefined;
}
