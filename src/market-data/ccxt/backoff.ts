/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of
 * min(max, base * 2^n). The random half spreads the reconnects of many connections dropped
 * together (one exchange outage drops all of them), the fixed half keeps a floor so a flapping
 * endpoint is not hammered.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export function backoffCeiling(attempt: number, { baseMs, maxMs }: BackoffPolicy): number {
  // 2^30 already exceeds any sane max; clamping the exponent avoids Infinity.
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
}

export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = backoffCeiling(attempt, policy);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
