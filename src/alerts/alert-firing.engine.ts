import { Dec, dec } from '../common/money/money.js';

/** What a rule last notified for one route (or (ticker, exchange), or exchange). */
export interface FiringMemory {
  /** Unix ms of the last notification. */
  notifiedAt: number;
  /** The figure notified then: the net spread in percent (funding: |APR|). */
  value: number;
  /** Which opening of the route it was: a new value means the route closed and reopened since. */
  episode: string;
}

export interface FiringObservation {
  now: number;
  value: number;
  episode: string;
}

export type FiringDecision = 'first' | 'reopened' | 'risen' | 'cooling' | 'unchanged';

/** A rise counts when it is at least half the notified figure again. */
const RISE_FACTOR = new Dec('0.5');

/**
 * Whether a rule notifies again for a route. The first observation always does. After that, only
 * once the cool-down has fully passed (at exactly `cooldownMs` it has), and then only when the
 * route closed and reopened since, or its figure rose by at least half of the notified figure's
 * size again (0.2 → 0.3 does; from 0 or below, any rise of at least half its size and above it).
 */
export function decideFiring(memory: FiringMemory | null, seen: FiringObservation, cooldownMs: number): FiringDecision {
  if (memory === null) return 'first';
  if (seen.now - memory.notifiedAt < cooldownMs) return 'cooling';
  if (seen.episode !== memory.episode) return 'reopened';
  return hasRisenByHalf(memory.value, seen.value) ? 'risen' : 'unchanged';
}

export const notifies = (decision: FiringDecision): boolean => decision === 'first' || decision === 'reopened' || decision === 'risen';

/** `now − before ≥ |before| × 0.5`, and strictly above `before`, in decimal (0.2 → 0.3 exactly counts). */
export function hasRisenByHalf(before: number, now: number): boolean {
  const rise = dec(now).minus(dec(before));
  return rise.gt(0) && rise.gte(dec(before).abs().times(RISE_FACTOR));
}
