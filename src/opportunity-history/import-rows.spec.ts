import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS, rowsOf, validateRows } from './import-rows.js';

const good = {
  time: '2026-03-01T12:00:00.250+02:00', ticker: 'ethusdt', buyExchange: 'OKX', sellExchange: 'gate', buyPrice: 3000,
  sellPrice: 3015, grossSpreadPercent: 0.5, buyFeePercent: 0.1, sellFeePercent: 0, withdrawalFee: 0.001,
  withdrawalFeeUsd: 3, feesEstimated: false, executable: true,
};
const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('import rows (rules: history-import)', () => {
  it('normalises a valid row; volume24h may be omitted (null)', () => {
    expect(validateRows([good])).toEqual([{
      ...good, time: new Date('2026-03-01T10:00:00.250Z'), ticker: 'ETH-USDT', buyExchange: 'okx', volume24h: null,
    }]);
    expect(validateRows([{ ...good, volume24h: 12.5 }])[0]?.volume24h).toBe(12.5);
  });

  it('names the first bad row, counting from 1; missing members come before other problems', () => {
    expect(failure(() => validateRows([good, good, { ...good, buyPrice: -1 }]))).toBe('row 3: buyPrice must be a positive number');
    expect(failure(() => validateRows([{ ...good, buyPrice: -1, executable: undefined }]))).toBe('row 1: executable is required');
    expect(failure(() => validateRows([{ ...good, time: '2026-03-01' }]))).toBe('row 1: time must be an RFC 3339 timestamp');
    expect(failure(() => validateRows([{ ...good, time: '2026-04-31T00:00:00Z' }]))).toBe('row 1: time must be an RFC 3339 timestamp');
  });

  it('reads NDJSON: one row per line, blank lines ignored, a bad line named', () => {
    expect(rowsOf('{"a":1}\r\n\n{"b":2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(failure(() => rowsOf('{"a":1}\nnot json'))).toBe('row 2: invalid JSON');
    expect(failure(() => rowsOf({ rows: [] }))).toBe('Invalid request body');
    expect(failure(() => rowsOf(undefined))).toBe('Invalid request body');
  });

  it(`refuses more than ${IMPORT_MAX_ROWS} rows in either form`, () => {
    expect(failure(() => rowsOf(new Array(IMPORT_MAX_ROWS + 1).fill({})))).toBe('at most 100000 rows per import');
    expect(rowsOf(new Array(IMPORT_MAX_ROWS).fill({}))).toHaveLength(IMPORT_MAX_ROWS);
  });
});
