import { describe, expect, it } from 'vitest';
import { grossSpread, netSpread } from './net-spread.engine.js';

const base = { buyPrice: 100, sellPrice: 101, referenceUsdt: 1000 };

describe('netSpread: the `windows` rule net, decimal, rounded once to 8 decimals (the money policy)', () => {
  it('known taker fees and a known withdrawal fee', () => {
    // gross (101 − 100) ÷ 100 × 100 = 1; withdrawal 0.0005 × 100 = 0.05 USD ÷ 1000 × 100 = 0.005;
    // net = 1 − 0.1 − 0.15 − 0.005 = 0.745.
    expect(netSpread({ ...base, buyFeePercent: 0.1, sellFeePercent: 0.15, withdrawalFee: 0.0005 })).toEqual({ netPercent: 0.745, estimated: false });
  });

  it('unknown fees take the `cost-defaults` rule defaults (taker 0.1 %, withdrawal 1 USD) and are marked estimated', () => {
    // 1 − 0.1 − 0.1 − 1 ÷ 1000 × 100 (= 0.1) = 0.7.
    expect(netSpread({ ...base, buyFeePercent: undefined, sellFeePercent: undefined, withdrawalFee: null })).toEqual({ netPercent: 0.7, estimated: true });
    // One unknown figure is enough to mark it.
    expect(netSpread({ ...base, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: null })).toEqual({ netPercent: 0.7, estimated: true });
    expect(netSpread({ ...base, buyFeePercent: 0.1, sellFeePercent: undefined, withdrawalFee: 0 }).estimated).toBe(true);
  });

  it('a withdrawal fee larger than the spread gives a negative net', () => {
    // gross (3009 − 3000) ÷ 3000 × 100 = 0.3; withdrawal 0.005 ETH × 3000 = 15 USD ÷ 1000 × 100 = 1.5;
    // net = 0.3 − 0.075 − 0.08 − 1.5 = −1.355.
    expect(netSpread({ buyPrice: 3000, sellPrice: 3009, buyFeePercent: 0.075, sellFeePercent: 0.08, withdrawalFee: 0.005, referenceUsdt: 1000 }))
      .toEqual({ netPercent: -1.355, estimated: false });
  });

  it('the reference notional scales only the withdrawal fee', () => {
    // 15 USD ÷ 10,000 × 100 = 0.15 → 0.3 − 0.075 − 0.08 − 0.15 = −0.005.
    expect(netSpread({ buyPrice: 3000, sellPrice: 3009, buyFeePercent: 0.075, sellFeePercent: 0.08, withdrawalFee: 0.005, referenceUsdt: 10_000 }).netPercent)
      .toBe(-0.005);
  });

  it('decimal arithmetic: a break-even route is exactly 0, never a binary residue', () => {
    // 0.3 − 0.1 − 0.1 − 0.1 in doubles is 5.55e-17; here it is 0 (and not −0).
    const even = netSpread({ buyPrice: 1000, sellPrice: 1003, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 0.001, referenceUsdt: 1000 });
    expect(Object.is(even.netPercent, 0)).toBe(true);
  });

  it('rounds once, half away from zero, at 8 decimals', () => {
    // gross (100.000000005 − 100) ÷ 100 × 100 = 0.000000005; no fees → 0.00000001 (half away from zero), and −0.00000001 mirrored.
    expect(netSpread({ buyPrice: 100, sellPrice: 100.000000005, buyFeePercent: 0, sellFeePercent: 0, withdrawalFee: 0, referenceUsdt: 1000 }).netPercent).toBe(0.00000001);
    expect(netSpread({ buyPrice: 100, sellPrice: 99.999999995, buyFeePercent: 0, sellFeePercent: 0, withdrawalFee: 0, referenceUsdt: 1000 }).netPercent).toBe(-0.00000001);
    // 0.000000004 % shows as 0, never −0.
    expect(Object.is(netSpread({ buyPrice: 100, sellPrice: 99.999999996, buyFeePercent: 0, sellFeePercent: 0, withdrawalFee: 0, referenceUsdt: 1000 }).netPercent, 0)).toBe(true);
    // (3.01 − 3) ÷ 3 × 100 = 0.33333333… → 0.33333333
    expect(grossSpread(3, 3.01)).toBe(0.33333333);
  });

  it('huge and tiny prices: computed as written, no overflow or binary residue', () => {
    // (1 − 1e-8) ÷ 1e-8 × 100 = 9,999,999,900 gross; fees 0.1 + 0.1; withdrawal 1 × 1e-8 USD ÷ 1000 × 100 = 1e-9 → 9,999,999,899.8
    expect(netSpread({ buyPrice: 1e-8, sellPrice: 1, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 1, referenceUsdt: 1000 }).netPercent).toBe(9_999_999_899.8);
  });
});
