import { describe, expect, it } from 'vitest';
import { intervalSecondsOf } from './ccxt-funding.js';

describe('intervalSecondsOf: ccxt funding intervals to seconds', () => {
  it('reads ccxt hour strings', () => {
    expect(intervalSecondsOf('1h')).toBe(3600);
    expect(intervalSecondsOf('4h')).toBe(14_400);
    expect(intervalSecondsOf('8h')).toBe(28_800);
  });
  it('reads raw milliseconds, which ccxt passes through when its table lacks the value (gate 2 h)', () => {
    expect(intervalSecondsOf('7200000')).toBe(7200);
  });
  it('nothing usable is null', () => {
    expect(intervalSecondsOf(undefined)).toBeNull();
    expect(intervalSecondsOf('0h')).toBeNull();
    expect(intervalSecondsOf('-28800000')).toBeNull();
    expect(intervalSecondsOf('soon')).toBeNull();
  });
});
