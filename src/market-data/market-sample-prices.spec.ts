import { describe, expect, it } from 'vitest';
import { PRICE_FIELDS, unpackPrices } from './market-sample.repository.js';

/** Records as the group read packs them: five big-endian float8 each (time, spot bid/ask, futures bid/ask). */
function pack(records: number[][]): Uint8Array {
  // An offset into a larger buffer, as pg's Buffer pool hands out, must be honoured.
  const buffer = new ArrayBuffer(5 + records.length * PRICE_FIELDS * 8);
  const view = new DataView(buffer, 5);
  records.flat().forEach((v, i) => view.setFloat64(i * 8, v));
  return new Uint8Array(buffer, 5);
}

describe('unpackPrices', () => {
  it('reads every field of every record, in order', () => {
    const records = [[1_000, 99.5, 99.6, 100, 100.1], [6_000, 100.2, 100.3, 100, 100.1]];
    expect(unpackPrices(pack(records))).toEqual({ count: 2, values: new Float64Array(records.flat()) });
  });

  it('puts records that arrive out of time order back in order, whole', () => {
    const records = [[11_000, 3, 3.1, 3.2, 3.3], [1_000, 1, 1.1, 1.2, 1.3], [6_000, 2, 2.1, 2.2, 2.3]];
    expect([...unpackPrices(pack(records)).values]).toEqual([1_000, 1, 1.1, 1.2, 1.3, 6_000, 2, 2.1, 2.2, 2.3, 11_000, 3, 3.1, 3.2, 3.3]);
  });

  it('reads an empty group as no samples and refuses a torn record', () => {
    expect(unpackPrices(new Uint8Array(0))).toEqual({ count: 0, values: new Float64Array(0) });
    expect(() => unpackPrices(new Uint8Array(PRICE_FIELDS * 8 + 3))).toThrow(/whole number of records/);
  });
});
