import { describe, expect, it } from 'vitest';
import { decideFiring, type FiringMemory, hasRisenByHalf, notifies } from './alert-firing.engine.js';

const COOLDOWN = 300_000;
const last: FiringMemory = { notifiedAt: 1_000_000, value: 0.2, episode: 'open-1' };

describe('decideFiring', () => {
  it('notifies the first time a rule sees a route', () => {
    expect(decideFiring(null, { now: 0, value: -5, episode: 'x' }, COOLDOWN)).toBe('first');
  });

  it('stays quiet 1 ms before the cool-down ends, even when the route reopened and the spread tripled', () => {
    const seen = { now: last.notifiedAt + COOLDOWN - 1, value: 0.6, episode: 'open-2' };
    expect(decideFiring(last, seen, COOLDOWN)).toBe('cooling');
  });

  it('at exactly the cool-down, a reopened route notifies', () => {
    expect(decideFiring(last, { now: last.notifiedAt + COOLDOWN, value: 0.2, episode: 'open-2' }, COOLDOWN)).toBe('reopened');
  });

  it('after the cool-down, the same opening with the same spread stays quiet', () => {
    expect(decideFiring(last, { now: last.notifiedAt + 10 * COOLDOWN, value: 0.2, episode: 'open-1' }, COOLDOWN)).toBe('unchanged');
  });

  it('after the cool-down, a rise to exactly 1.5 times notifies (0.2 → 0.3) and just under does not', () => {
    const at = last.notifiedAt + COOLDOWN;
    expect(decideFiring(last, { now: at, value: 0.3, episode: 'open-1' }, COOLDOWN)).toBe('risen');
    expect(decideFiring(last, { now: at, value: 0.29999999, episode: 'open-1' }, COOLDOWN)).toBe('unchanged');
  });

  it('maps decisions to notifications', () => {
    expect(['first', 'reopened', 'risen', 'cooling', 'unchanged'].map((d) => notifies(d as never))).toEqual([true, true, true, false, false]);
  });
});

describe('hasRisenByHalf', () => {
  it('needs half of the size again (hand-computed)', () => {
    expect(hasRisenByHalf(0.1, 0.15)).toBe(true); // 0.1 + 0.05: binary 0.1 × 1.5 is 0.15000000000000002
    expect(hasRisenByHalf(0.1, 0.14999999)).toBe(false);
    expect(hasRisenByHalf(2, 3)).toBe(true);
    expect(hasRisenByHalf(2, 2.9)).toBe(false);
  });

  it('from zero, any rise counts; no change does not', () => {
    expect(hasRisenByHalf(0, 0)).toBe(false);
    expect(hasRisenByHalf(0, 0.00000001)).toBe(true);
  });

  it('negative spreads: -0.4 must rise by 0.2 (to -0.2)', () => {
    expect(hasRisenByHalf(-0.4, -0.2)).toBe(true);
    expect(hasRisenByHalf(-0.4, -0.21)).toBe(false);
    expect(hasRisenByHalf(-0.4, -0.6)).toBe(false);
  });

  it('tiny and huge figures', () => {
    expect(hasRisenByHalf(1e-8, 1.5e-8)).toBe(true);
    expect(hasRisenByHalf(1e-8, 1.4e-8)).toBe(false);
    expect(hasRisenByHalf(1e12, 1.5e12)).toBe(true);
    expect(hasRisenByHalf(1e12, 1.5e12 - 1)).toBe(false);
  });

  it('a fall never counts', () => {
    expect(hasRisenByHalf(0.5, 0.1)).toBe(false);
  });
});
