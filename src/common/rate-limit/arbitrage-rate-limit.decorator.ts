import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiErrorResponse } from '../http/api-errors.decorator.js';
import { ArbitrageRateLimitGuard, RATE_LIMIT_EXCEEDED } from './arbitrage-rate-limit.guard.js';

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });

/**
 * Puts a controller (or route) in the arbitrage route group of the `rate-limits` rule: every route under
 * /v1/funding-rates, /v1/opportunity-history/ and /v1/arbitrage/ carries it, and they all draw
 * on one counter per client IP. Never put it on an SSE stream (streams have their own cap).
 */
export function ArbitrageRateLimit(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(ArbitrageRateLimitGuard),
    ApiErrorResponse(429, [RATE_LIMIT_EXCEEDED], {
      description:
        'The arbitrage route group allows ARBITRAGE_RATE_LIMIT (default 30) requests per client IP per ' +
        'ARBITRAGE_RATE_TTL_MS (default 60 s), one budget shared by all its routes. Every response of the group ' +
        'carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
      headers: {
        'Retry-After': integerHeader('Seconds until a request is accepted again'),
        'X-RateLimit-Limit': integerHeader('Requests allowed per window'),
        'X-RateLimit-Remaining': integerHeader('Requests left in the window'),
        'X-RateLimit-Reset': integerHeader('Seconds until the window resets'),
      },
    }),
  );
}
