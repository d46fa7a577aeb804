import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AppError, ErrorCode } from '../errors/app-error.js';
import { clientKeyOf } from '../http/request-context.js';

export const RATE_LIMIT_EXCEEDED = 'rate limit exceeded';

/**
 * The arbitrage route group's limit (rules: rate-limits). The library guard keys its counter by controller and
 * handler; here every route of the group shares ONE key per client, so 30 requests spread over
 * funding rates, the backtest and the crossing counts exhaust the same budget.
 */
@Injectable()
export class ArbitrageRateLimitGuard extends ThrottlerGuard {
  /**
   * `req.ip` is the socket address, or the X-Forwarded-For client when TRUST_PROXY sets
   * express's 'trust proxy' (app.factory.ts); the library normalises IPv6 to its /64.
   */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `arbitrage:${tracker}`;
  }

  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const retryAfter = String(Math.max(1, detail.timeToBlockExpire));
    const res = context.switchToHttp().getResponse<Response>();
    // The same headers as an accepted request, so a client reads one set whatever the status.
    res.setHeader('X-RateLimit-Limit', String(detail.limit));
    res.setHeader('X-RateLimit-Remaining', '0');
    res.setHeader('X-RateLimit-Reset', retryAfter);
    throw new AppError(ErrorCode.RateLimited, RATE_LIMIT_EXCEEDED, { 'Retry-After': retryAfter });
  }

  protected override getTracker(req: Request): Promise<string> {
    // An authenticated request counts against its token, wherever it comes from; others per IP.
    return super.getTracker({ ip: clientKeyOf(req) });
  }
}
