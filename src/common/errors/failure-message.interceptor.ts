import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { setFailureMessage } from '../http/request-context.js';
import { FAILURE_MESSAGE } from './failure-message.decorator.js';

/** Records the endpoint's documented 500 text on the request, for the exception filter. */
@Injectable()
export class FailureMessageInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const message = this.reflector.getAllAndOverride<string | undefined>(FAILURE_MESSAGE, [
        context.getHandler(),
        context.getClass(),
      ]);
      setFailureMessage(context.switchToHttp().getRequest<Request>(), message);
    }
    return next.handle();
  }
}
