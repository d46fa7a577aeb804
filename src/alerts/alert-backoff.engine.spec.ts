import { describe, expect, it } from 'vitest';
import { type BackoffPolicy, givesUp, parseRetryAfter, retryDelayMs } from './alert-backoff.engine.js';

const policy: BackoffPolicy = { baseMs: 1000, maxDelayMs: 60_000, giveUpAfterMs: 86_400_000 };

describe('retryDelayMs', () => {
  it('doubles per attempt, between half and all of the nominal wait', () => {
    expect(retryDelayMs(1, policy, 0, null)).toBe(500);
    expect(retryDelayMs(1, policy, 1, null)).toBe(1000);
    expect(retryDelayMs(2, policy, 0, null)).toBe(1000);
    expect(retryDelayMs(3, policy, 0.5, null)).toBe(3000);
  });

  it('never waits longer than the cap, however many attempts', () => {
    expect(retryDelayMs(7, policy, 1, null)).toBe(60_000);
    expect(retryDelayMs(500, policy, 1, null)).toBe(60_000);
  });

  it("honours the receiver's wait as given, capped", () => {
    expect(retryDelayMs(1, policy, 0, 2500)).toBe(2500);
    expect(retryDelayMs(9, policy, 1, 0)).toBe(0);
    expect(retryDelayMs(1, policy, 0, 10 * 60 * 60_000)).toBe(60_000);
  });
});

describe('givesUp', () => {
  it('at exactly 24 h, not 1 ms before', () => {
    expect(givesUp(0, 86_400_000 - 1, policy)).toBe(false);
    expect(givesUp(0, 86_400_000, policy)).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, fractions and HTTP dates', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter('0.25', 0)).toBe(250);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});
