import { SetMetadata } from '@nestjs/common';

export const FAILURE_MESSAGE = 'app:failure-message';

/** The the API contract's 500 text for an endpoint, used when an unexpected error escapes its handler. */
export const FailureMessage = (message: string): MethodDecorator & ClassDecorator =>
  SetMetadata(FAILURE_MESSAGE, message);
