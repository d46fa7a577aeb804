import { describe, expect, it } from 'vitest';
import { FailedAttempts } from './failed-attempts.js';

describe('failed authentications per client IP', () => {
  it('the limit-th failure in a minute closes the IP until its oldest failure is a minute old', () => {
    let now = 0;
    const failed = new FailedAttempts(3, () => now);
    failed.record('1.1.1.1');
    now = 10_000;
    failed.record('1.1.1.1');
    expect(failed.retryAfterSeconds('1.1.1.1')).toBe(0);
    failed.record('1.1.1.1');
    // Oldest at 0: open again at 60 s, 50 s from now.
    expect(failed.retryAfterSeconds('1.1.1.1')).toBe(50);
    expect(failed.retryAfterSeconds('2.2.2.2')).toBe(0);
    now = 59_999;
    expect(failed.retryAfterSeconds('1.1.1.1')).toBe(1);
    now = 60_000;
    expect(failed.retryAfterSeconds('1.1.1.1')).toBe(0);
  });
});
