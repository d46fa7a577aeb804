import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay } from './backoff.js';

const policy = { baseMs: 1000, maxMs: 30_000 };

describe('reconnect backoff', () => {
  it('doubles per attempt up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => backoffCeiling(n, policy))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('jitters within [ceiling/2, ceiling]', () => {
    for (const attempt of [0, 3, 10]) {
      const ceiling = backoffCeiling(attempt, policy);
      expect(backoffDelay(attempt, policy, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(attempt, policy, () => 0.999_999)).toBeLessThanOrEqual(ceiling);
      for (let i = 0; i < 200; i++) {
        const d = backoffDelay(attempt, policy);
        expect(d).toBeGreaterThanOrEqual(ceiling / 2);
        expect(d).toBeLessThanOrEqual(ceiling);
      }
    }
  });
});
