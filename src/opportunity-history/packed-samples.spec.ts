import { describe, expect, it } from 'vitest';
import { PACKED_SAMPLE_BYTES, unpackSamples } from './packed-samples.js';

/** Writes records the way PACKED_SAMPLE_SQL does: big-endian float8 ×5, then an int2 of flags. */
function pack(records: [number, number, number, number, number, number][]): Uint8Array {
  // An offset into a larger buffer, as pg's Buffer pool hands out, must be honoured.
  const buffer = new ArrayBuffer(3 + records.length * PACKED_SAMPLE_BYTES);
  const view = new DataView(buffer, 3);
  records.forEach((r, i) => {
    const at = i * PACKED_SAMPLE_BYTES;
    r.slice(0, 5).forEach((v, j) => view.setFloat64(at + j * 8, v));
    view.setInt16(at + 40, r[5]);
  });
  return new Uint8Array(buffer, 3);
}

describe('unpackSamples', () => {
  it('reads every field and both flags of each record', () => {
    const bytes = pack([
      [1_700_000_000_000, 0.35, 0.1, 0.08, 1.3, 0],
      [1_700_000_010_000, -0.2, 0.1, 0.1, 0, 1],
      [1_700_000_020_000, 0.9, 0.1, 0.1, 1, 2],
      [1_700_000_030_000, 0.5, 0.1, 0.1, 1, 3],
    ]);
    const samples = unpackSamples(bytes);
    expect(samples[0]).toEqual({
      time: 1_700_000_000_000, grossSpreadPercent: 0.35, buyFeePercent: 0.1, sellFeePercent: 0.08,
      withdrawalFeeUsd: 1.3, feesEstimated: false, executable: false,
    });
    expect(samples.map((s) => [s.feesEstimated, s.executable])).toEqual([[false, false], [false, true], [true, false], [true, true]]);
  });

  it('returns the samples oldest first even if the records arrive out of order', () => {
    const bytes = pack([
      [1_700_000_020_000, 0.9, 0.1, 0.1, 1, 1],
      [1_700_000_000_000, 0.35, 0.1, 0.08, 1.3, 0],
      [1_700_000_010_000, -0.2, 0.1, 0.1, 0, 3],
    ]);
    expect(unpackSamples(bytes).map((s) => [s.time, s.grossSpreadPercent, s.feesEstimated])).toEqual([
      [1_700_000_000_000, 0.35, false], [1_700_000_010_000, -0.2, true], [1_700_000_020_000, 0.9, false],
    ]);
  });

  it('reads an empty page as no samples and refuses a torn record', () => {
    expect(unpackSamples(new Uint8Array(0))).toEqual([]);
    expect(() => unpackSamples(new Uint8Array(PACKED_SAMPLE_BYTES + 1))).toThrow(/whole number of records/);
  });
});
