import { describe, expect, it } from 'vitest';
import { heldSteps } from './held-samples';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(T + ms).toISOString();
const s = (ms: number) => (T + ms) / 1000;

describe('heldSteps (rules: windows)', () => {
  it('a 2 s window of stream samples is 2 s on the chart: each sample holds until the next', () => {
    const samples = [{ time: at(0), spread: 0.5 }, { time: at(800), spread: 0.6 }, { time: at(2000), spread: -0.1 }];
    // The closing sample holds one interval (10 s) and the line breaks after it.
    expect(heldSteps(samples, 10_000)).toEqual([
      [s(0), s(800), s(2000), s(12_000), s(12_001)],
      [0.5, 0.6, -0.1, -0.1, null],
    ]);
  });

  it('a silence longer than the heartbeat breaks the line where the sample stopped holding', () => {
    const samples = [{ time: at(0), spread: 0.3 }, { time: at(25_000), spread: 0.4 }];
    expect(heldSteps(samples, 10_000)).toEqual([
      [s(0), s(10_000), s(10_001), s(25_000), s(35_000), s(35_001)],
      [0.3, 0.3, null, 0.4, 0.4, null],
    ]);
  });

  it('samples exactly one interval apart join up; no samples, no line', () => {
    expect(heldSteps([{ time: at(0), spread: 0.1 }, { time: at(10_000), spread: 0.2 }], 10_000)[1]).toEqual([0.1, 0.2, 0.2, null]);
    expect(heldSteps([], 10_000)).toEqual([[], []]);
  });
});
