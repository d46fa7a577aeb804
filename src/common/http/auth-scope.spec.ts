import { describe, expect, it } from 'vitest';
import { authScopeOf, isStreamPath } from './auth-scope.js';

describe('auth scope of a route', () => {
  it.each([
    ['GET', '/health', 'open'],
    ['GET', '/health/market', 'open'],
    ['GET', '/metrics', 'open'],
    ['GET', '/v1/realtime/prices', 'market'],
    ['GET', '/v1/funding-rates/spreads', 'market'],
    ['POST', '/v1/opportunity-history/backtest', 'market'],
    ['POST', '/v1/opportunity-history/import', 'token'],
    ['POST', '/v1/arbitrage/future/crossing-counts', 'token'],
    ['GET', '/v1/arbitrage/future/crossing-counts', 'market'],
    ['POST', '/v1/auth/stream-ticket', 'token'],
    ['GET', '/v1/lookers', 'user'],
    ['GET', '/v1/journal/summary', 'user'],
    // Not listed anywhere: locked.
    ['GET', '/v1/something-new', 'user'],
    ['GET', '/healthz', 'user'],
    ['GET', '/v1/funding-ratesx', 'user'],
  ])('%s %s is %s', (method, path, scope) => {
    expect(authScopeOf(method, path)).toBe(scope);
  });

  it('streams take tickets; other routes do not', () => {
    expect(isStreamPath('/v1/realtime/arbitrage')).toBe(true);
    expect(isStreamPath('/v1/lookers/abc/stream')).toBe(true);
    expect(isStreamPath('/v1/calculators/stream')).toBe(true);
    expect(isStreamPath('/v1/lookers')).toBe(false);
  });
});
