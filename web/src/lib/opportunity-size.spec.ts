import { describe, expect, it } from 'vitest';
import { NONE } from './format';
import { SIZE_COLUMNS, depthAge, pricedAt, sizeCells, type OpportunitySize } from './opportunity-size';

const SHIB: OpportunitySize = {
  notionalUsdt: 1000, buyAvgPrice: 0.000022003398, sellAvgPrice: 0.0000225, filledUsdt: 1000,
  netProfitPercent: 1.90691234, maxSizeUsdt: 19_808.71, depthAgeMs: 443,
};
const texts = (cells: ReturnType<typeof sizeCells>): string[] => SIZE_COLUMNS.map((c) => cells[c.key].text);

describe('sizeCells', () => {
  it('maps a size to the buy and sell averages, net at size, max size and book age columns', () => {
    expect(texts(sizeCells(SHIB))).toEqual(['0.0000220034', '0.0000225', '1.907 %', '19,809', '443 ms']);
    expect(sizeCells(SHIB)['net-at-size'].negative).toBe(false);
  });

  it('marks a fill the books could not complete and says by how much', () => {
    const cells = sizeCells({ ...SHIB, filledUsdt: 640.5, netProfitPercent: -0.25 });
    expect(cells['net-at-size']).toEqual({ text: '-0.25 % *', title: 'Only 640.5 of 1,000 USDT fill: the books run out', negative: true });
    expect(cells['buy-avg'].title).toBe('Only 640.5 of 1,000 USDT fill: the books run out');
  });

  it('shows each null member as a dash whose title says why', () => {
    const cells = sizeCells({ ...SHIB, buyAvgPrice: null, sellAvgPrice: null, netProfitPercent: null, filledUsdt: 0, maxSizeUsdt: 0 });
    expect(texts(cells)).toEqual([NONE, NONE, NONE, '0', '443 ms']);
    expect(cells['buy-avg'].title).toMatch(/Nothing fills/);
    expect(cells['max-size'].title).toMatch(/No size reaches your min net/);
  });

  it('a size not priced yet (books unknown) is a dash in every column, titled with the reason', () => {
    for (const size of [null, undefined]) {
      const cells = sizeCells(size);
      expect(texts(cells)).toEqual(SIZE_COLUMNS.map(() => NONE));
      expect(cells['depth-age'].title).toMatch(/No order books for this route yet/);
    }
  });

  it('keeps a large price’s cents and a small max size’s decimals', () => {
    const cells = sizeCells({ ...SHIB, buyAvgPrice: 97_005.4072, sellAvgPrice: 98_000, maxSizeUsdt: 12.345 });
    expect(texts(cells).slice(0, 2)).toEqual(['97,005.41', '98,000']);
    expect(cells['max-size'].text).toBe('12.35');
  });
});

describe('depthAge and pricedAt', () => {
  it('reads a book age in ms below a second, in tenths of seconds above', () => {
    expect([depthAge(0), depthAge(443), depthAge(999.6), depthAge(1250)]).toEqual(['0 ms', '443 ms', '1 s', '1.3 s']);
  });

  it('takes the priced size from the first event that has one', () => {
    expect(pricedAt([null, { ...SHIB, notionalUsdt: 500 }])).toBe(500);
    expect(pricedAt([null, undefined])).toBeNull();
  });
});
