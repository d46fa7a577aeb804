import { describe, expect, it } from 'vitest';
import { neutraliseFormula, plainDecimal, restoreFormula } from './journal-csv.js';

describe('journal CSV cells (rules: csv)', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [1.5, '1.5'],
    [-2.25, '-2.25'],
    [1e-7, '0.0000001'],
    [-1.234e-9, '-0.000000001234'],
    [1e21, '1000000000000000000000'],
    [1.5e22, '15000000000000000000000'],
    [123456789.123, '123456789.123'],
  ])('%d is written %s, and reads back as the same number', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
    expect(Number(text)).toBe(Object.is(value, -0) ? 0 : value);
  });

  it.each(['=SUM(A1)', '+1', '-5 short', '@cmd', '\tx', '\rx'])('%j gets an apostrophe and the import removes it', (text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
    expect(restoreFormula(neutraliseFormula(text))).toBe(text);
  });

  it('other text is untouched both ways', () => {
    expect(neutraliseFormula("it's fine")).toBe("it's fine");
    expect(restoreFormula("'quoted")).toBe("'quoted");
  });
});
