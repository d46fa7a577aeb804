import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AppError, ErrorCode } from '../common/errors/app-error.js';
import { authScopeOf, EMAIL_MISMATCH, isStreamPath, MISSING_OR_INVALID_TOKEN, TOO_MANY_FAILED_AUTHENTICATIONS } from '../common/http/auth-scope.js';
import { type Caller, setCaller } from '../common/http/request-context.js';
import { ApiTokensService } from './api-tokens.service.js';
import { FailedAttempts } from './failed-attempts.js';
import { StreamTickets } from './stream-tickets.js';

const BEARER = /^Bearer +(\S+)$/i;

export const unauthorized = (): AppError => new AppError(ErrorCode.Unauthorized, MISSING_OR_INVALID_TOKEN, { 'WWW-Authenticate': 'Bearer' });
export const emailMismatch = (): AppError => new AppError(ErrorCode.Forbidden, EMAIL_MISMATCH);

/**
 * AUTH_MODE=token: who the request is (a bearer token, or on a stream a single-use ticket) and
 * whether it may act on the e-mail it names. With AUTH_MODE=none it lets everything through.
 * Global, so a route cannot be forgotten: a path the scope table does not list needs a token.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: ApiTokensService,
    private readonly tickets: StreamTickets,
    private readonly failed: FailedAttempts,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http' || this.config.auth.mode === 'none') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const scope = authScopeOf(req.method, req.path);
    if (scope === 'open') return true;
    // A public market route still takes a token when one is sent: its limits then count per token.
    if (scope === 'market' && this.config.auth.publicMarket && req.headers.authorization === undefined) return true;
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const wait = this.failed.retryAfterSeconds(ip);
    if (wait > 0) throw new AppError(ErrorCode.RateLimited, TOO_MANY_FAILED_AUTHENTICATIONS, { 'Retry-After': String(wait) });
    const caller = await this.authenticate(req);
    if (!caller) {
      this.failed.record(ip);
      throw unauthorized();
    }
    setCaller(req, caller);
    if (scope === 'user' && namedEmails(req).some((email) => email !== caller.email)) throw emailMismatch();
    return true;
  }

  private authenticate(req: Request): Promise<Caller | undefined> {
    const header = req.headers.authorization;
    if (header !== undefined) {
      const match = BEARER.exec(header.trim());
      return match ? this.tokens.verify(match[1]) : Promise.resolve(undefined);
    }
    // EventSource cannot send a header: a stream may present a ticket instead.
    const ticket = (req.query as Record<string, unknown>).ticket;
    if (req.method === 'GET' && isStreamPath(req.path) && typeof ticket === 'string') return this.tickets.redeem(ticket);
    return Promise.resolve(undefined);
  }
}

/** The e-mails a request names, in its query or its JSON body, as the DTOs read them. */
function namedEmails(req: Request): string[] {
  const query = (req.query as Record<string, unknown>).email;
  const body = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>).email : undefined;
  return [query, body]
    .flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value]))
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '')
    .map((email) => email.trim().toLowerCase());
}
