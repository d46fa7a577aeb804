import { describe, expect, it } from 'vitest';
import { Dec, roundAmount } from '../common/money/money.js';
import type { BookLevel } from '../market-data/depth/depth-book.js';
import { type DepthWalkInput, flatLevels, levelsBefore, walkDepth } from './depth.engine.js';
import { netSpread } from './net-spread.engine.js';

/** The walk's input as the tests write it: levels as tuples. */
type TupleWalkInput = Omit<DepthWalkInput, 'asks' | 'bids'> & { asks: readonly BookLevel[]; bids: readonly BookLevel[] };

const fees = { buyFeePercent: 0.1, sellFeePercent: 0.1 };
const noCosts = { buyFeePercent: 0, sellFeePercent: 0, withdrawalFee: 0 };
const walk = (over: Partial<TupleWalkInput>): ReturnType<typeof walkDepth> =>
  walkDepth({ asks: [], bids: [], notionalUsdt: 1000, ...fees, withdrawalFee: 0.01, minNetPercent: 0, ...over });

describe('walkDepth: a route priced at a size, decimal, rounded once at the edge', () => {
  it('one level: the average prices are the level prices and the net is the event rule at that notional', () => {
    // 500 USDT buys 5 at 100, sold at 102 for 510. Gross 2 %; fees 0.2; withdrawal 0.01 × 100 = 1 USD
    // ÷ 500 × 100 = 0.2. Net 2 − 0.2 − 0.2 = 1.6. The whole book (1000 USDT) nets 2 − 0.2 − 0.1 = 1.7 ≥ 0.
    const out = walk({ asks: [[100, 10]], bids: [[102, 10]], notionalUsdt: 500 });
    expect(out).toEqual({ notionalUsdt: 500, buyAvgPrice: 100, sellAvgPrice: 102, filledUsdt: 500, netProfitPercent: 1.6, maxSizeUsdt: 1000 });
    const same = netSpread({ buyPrice: 100, sellPrice: 102, ...fees, withdrawalFee: 0.01, referenceUsdt: 500 });
    expect(out.netProfitPercent).toBe(same.netPercent);
  });

  it('many levels: both books walked level by level', () => {
    // 302 USDT: 1 at 100 + 2 at 101 = 302 for 3. Sold: 2 at 103 + 1 at 102.5 = 308.5.
    // buyAvg 302 ÷ 3 = 100.666666666667 (12 decimals), sellAvg 308.5 ÷ 3 = 102.833333333333.
    // Withdrawal 0.01 × 100.6667 = 1.006667 USD. Net (308.5 − 302 − 1.006667) ÷ 302 × 100 − 0.2 = 1.61898455.
    const out = walk({ asks: [[100, 1], [101, 2], [102, 5]], bids: [[103, 2], [102.5, 1], [101, 10]], notionalUsdt: 302 });
    expect(out.buyAvgPrice).toBe(100.666666666667);
    expect(out.sellAvgPrice).toBe(102.833333333333);
    expect(out.filledUsdt).toBe(302);
    expect(out.netProfitPercent).toBe(1.61898455);
  });

  it('a notional larger than the asks fills what the asks hold', () => {
    // 1 at 100 is the whole book: filled 100; sold at 101. Withdrawal 0.001 × 100 = 0.1 USD = 0.1 %.
    // Net 1 − 0.2 − 0.1 = 0.7.
    const out = walk({ asks: [[100, 1]], bids: [[101, 5]], notionalUsdt: 1000, withdrawalFee: 0.001 });
    expect(out).toMatchObject({ filledUsdt: 100, buyAvgPrice: 100, sellAvgPrice: 101, netProfitPercent: 0.7, maxSizeUsdt: 100 });
  });

  it('a notional larger than the bids fills only what the bids can take', () => {
    // The bids take 2: 2 × 100 = 200 USDT spent, 202 received.
    const out = walk({ asks: [[100, 10]], bids: [[101, 2]], notionalUsdt: 1000, ...noCosts });
    expect(out).toMatchObject({ filledUsdt: 200, netProfitPercent: 1, maxSizeUsdt: 200 });
  });

  it('an emptied book fills nothing: no prices, no net, size 0', () => {
    const expected = { notionalUsdt: 1000, buyAvgPrice: null, sellAvgPrice: null, filledUsdt: 0, netProfitPercent: null, maxSizeUsdt: 0 };
    expect(walk({ asks: [], bids: [[101, 2]] })).toEqual(expected);
    expect(walk({ asks: [[100, 1]], bids: [] })).toEqual(expected);
    // Levels without a size or a price are no liquidity.
    expect(walk({ asks: [[100, 0], [0, 5]], bids: [[101, 2]] })).toEqual(expected);
  });

  it('fees turning a positive gross fill negative: negative net, no size worth taking', () => {
    // Gross 0.15 % at every size, fees 0.2: net −0.05 whatever the size.
    const out = walk({ asks: [[100, 10]], bids: [[100.15, 10]], withdrawalFee: 0, notionalUsdt: 500 });
    expect(out.netProfitPercent).toBe(-0.05);
    expect(out.maxSizeUsdt).toBe(0);
  });

  it('a tiny notional is eaten by the withdrawal fee; a huge one fills in full', () => {
    // 10 USDT: withdrawal 0.01 × 100 = 1 USD = 10 %: 1 − 0.2 − 10 = −9.2.
    expect(walk({ asks: [[100, 10]], bids: [[101, 10]], notionalUsdt: 10 }).netProfitPercent).toBe(-9.2);
    // 10,000,000 USDT buys 200 at 50,000, sold at 50,100: gross 0.2, fees 0.2, withdrawal
    // 0.0005 × 50,000 = 25 USD = 0.00025 %: net −0.00025.
    const huge = walk({ asks: [[50_000, 1000]], bids: [[50_100, 1000]], notionalUsdt: 10_000_000, withdrawalFee: 0.0005 });
    expect(huge).toMatchObject({ filledUsdt: 10_000_000, buyAvgPrice: 50_000, sellAvgPrice: 50_100, netProfitPercent: -0.00025 });
  });
});

describe('walkDepth maxSizeUsdt: the largest notional still at or above the threshold', () => {
  // Without costs: 1 at 100, then asks at 104 against bids at 103. Past the first level, x more
  // bought: N = 100 + 104x, S = 103 + 103x, net = (3 − x) ÷ (100 + 104x) × 100: break-even at x = 3,
  // N = 412.
  const book = { asks: [[100, 1], [104, 10]] as const, bids: [[103, 100]] as const, ...noCosts };

  it('exactly at the threshold: the break-even size itself', () => {
    const out = walk({ ...book, minNetPercent: 0 });
    expect(out.maxSizeUsdt).toBe(412);
    expect(walk({ ...book, notionalUsdt: 412 }).netProfitPercent).toBe(0);
  });

  it('a threshold just above: a size just below; just below: a size just above', () => {
    const above = walk({ ...book, minNetPercent: 0.00000001 }).maxSizeUsdt;
    expect(above).toBeLessThan(412);
    expect(above).toBeGreaterThan(411.999);
    const below = walk({ ...book, minNetPercent: -0.00000001 }).maxSizeUsdt;
    expect(below).toBeGreaterThan(412);
    expect(below).toBeLessThan(412.001);
  });

  it('the size found passes and one cent more does not', () => {
    const threshold = 1;
    const { maxSizeUsdt } = walk({ ...book, minNetPercent: threshold });
    expect(walk({ ...book, notionalUsdt: maxSizeUsdt }).netProfitPercent).toBeGreaterThanOrEqual(threshold);
    expect(walk({ ...book, notionalUsdt: maxSizeUsdt + 0.01 }).netProfitPercent).toBeLessThan(threshold);
  });

  it('the default 1 USD withdrawal fee: solved on the second level', () => {
    // Fees 0.1 + 0.1, withdrawal 1 USD; x past the first level: 103 + 103x − 1 ≥ 1.002 × (100 + 104x)
    // ⇔ 1.8 ≥ 1.208x ⇔ x ≤ 1.8 ÷ 1.208; N = 100 + 104 × 1.8 ÷ 1.208 = 254.96688742.
    expect(walk({ ...book, ...fees, withdrawalFee: null }).maxSizeUsdt).toBe(254.96688742);
  });

  it('a withdrawal fee in base units: the quadratic root on the second level', () => {
    // w = 0.01, no fees; net ≥ 0 ⇔ (S − N) Q ≥ w N ⇔ (3 − x)(1 + x) ≥ 0.01 (100 + 104x)
    // ⇔ x² − 0.96x − 2 ≤ 0 ⇔ x ≤ (0.96 + √8.9216) ÷ 2 = 1.97345237620…; N = 100 + 104x = 305.23904713.
    expect(walk({ ...book, withdrawalFee: 0.01 }).maxSizeUsdt).toBe(305.23904713);
  });

  it('a withdrawal fee that makes small sizes lose: the net rises with the size, the book bounds it', () => {
    // One level 100 / 101, w = 0.01: net = 0.8 − 100 ÷ N (fees 0.2): 0.79 at the whole book (10,000).
    const level = { asks: [[100, 100]] as const, bids: [[101, 100]] as const };
    expect(walk({ ...level, minNetPercent: 0.79 }).maxSizeUsdt).toBe(10_000);
    expect(walk({ ...level, minNetPercent: 0.79000001 }).maxSizeUsdt).toBe(0);
  });
});

/**
 * The size search as it was before doubles screened it: every segment solved in decimal from the
 * deepest. The engine must answer exactly as this does on any books.
 */
function referenceMaxSize(input: TupleWalkInput): number {
  type S = { ask: Dec; bid: Dec; qty: Dec; n0: Dec; q0: Dec; s0: Dec };
  const usable = (l: readonly [number, number] | undefined): Dec =>
    l && Number.isFinite(l[0]) && Number.isFinite(l[1]) && l[0] > 0 && l[1] > 0 ? new Dec(l[1]) : new Dec(0);
  const segs: S[] = [];
  let i = 0; let j = 0; let askLeft = new Dec(0); let bidLeft = new Dec(0);
  let n0 = new Dec(0); let q0 = new Dec(0); let s0 = new Dec(0);
  for (;;) {
    while (askLeft.isZero() && i < input.asks.length) askLeft = usable(input.asks[i++]);
    while (bidLeft.isZero() && j < input.bids.length) bidLeft = usable(input.bids[j++]);
    if (askLeft.isZero() || bidLeft.isZero()) break;
    const ask = new Dec(input.asks[i - 1][0]);
    const bid = new Dec(input.bids[j - 1][0]);
    const qty = Dec.min(askLeft, bidLeft);
    segs.push({ ask, bid, qty, n0, q0, s0 });
    n0 = n0.plus(ask.times(qty)); q0 = q0.plus(qty); s0 = s0.plus(bid.times(qty));
    askLeft = askLeft.minus(qty); bidLeft = bidLeft.minus(qty);
  }
  const fees = new Dec(input.buyFeePercent ?? 0.1).plus(input.sellFeePercent ?? 0.1);
  const baseFee = new Dec(input.withdrawalFee ?? 0);
  const usdFee = new Dec(input.withdrawalFee === null ? 1 : 0);
  const k = new Dec(input.minNetPercent).plus(fees).div(100).plus(1);
  for (let x = segs.length - 1; x >= 0; x--) {
    const { ask, bid, qty, n0: n, q0: q, s0: s } = segs[x];
    const a = bid.minus(k.times(ask));
    const b = s.plus(bid.times(q)).minus(baseFee.times(ask)).minus(usdFee).minus(k.times(n.plus(ask.times(q))));
    const c = s.times(q).minus(baseFee.times(n)).minus(usdFee.times(q)).minus(k.times(n).times(q));
    const h = (v: Dec): Dec => a.times(v).plus(b).times(v).plus(c);
    if (h(qty).gte(0)) return roundAmount(n.plus(ask.times(qty)));
    let roots: Dec[] = [];
    if (a.isZero()) roots = b.isZero() ? [] : [c.neg().div(b)];
    else {
      const disc = b.times(b).minus(a.times(c).times(4));
      if (disc.gte(0)) roots = [b.neg().plus(disc.sqrt()).div(a.times(2)), b.neg().minus(disc.sqrt()).div(a.times(2))];
    }
    const inside = roots.filter((r) => r.gte(0) && r.lt(qty));
    if (inside.length > 0) return roundAmount(n.plus(ask.times(Dec.max(...inside))));
  }
  return 0;
}

describe('walkDepth maxSizeUsdt: doubles only skip segments, decimal decides', () => {
  // A small deterministic generator (no dependence on the run).
  let seed = 27;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const side = (mid: number, dir: 1 | -1, n: number, qtys: readonly number[]): [number, number][] =>
    Array.from({ length: n }, (_, i) => [Number((mid * (1 + dir * 0.001 * (i + rand()))).toFixed(4)), pick(qtys)]);

  it('answers exactly as solving every segment in decimal, on 400 random books (shared quantities make segments end together)', () => {
    const qtys = [0.1, 0.2, 0.3, 0.7, 1, 2.5, 10, 0.0001];
    let nonZero = 0;
    for (let run = 0; run < 400; run++) {
      const mid = pick([0.0012, 1, 100, 43_000]);
      const spread = pick([-0.01, 0, 0.002, 0.01, 0.05]);
      const input: TupleWalkInput = {
        asks: side(mid, 1, 1 + Math.floor(rand() * 25), qtys),
        bids: side(mid * (1 + spread), -1, 1 + Math.floor(rand() * 25), qtys),
        notionalUsdt: pick([10, 1000, 1e6]),
        buyFeePercent: pick([undefined, 0, 0.1]),
        sellFeePercent: pick([undefined, 0.05, 0.1]),
        withdrawalFee: pick([null, 0, 0.01, 5]),
        minNetPercent: pick([-1, 0, 0.3, 1, 4]),
      };
      const expected = referenceMaxSize(input);
      if (expected > 0) nonZero += 1;
      expect(walkDepth(input).maxSizeUsdt, JSON.stringify(input)).toBe(expected);
      // Books as the service holds them (flat price, quantity pairs): the same walk to the digit.
      expect(walkDepth({ ...input, asks: flatLevels(input.asks), bids: flatLevels(input.bids) })).toEqual(walkDepth(input));
    }
    expect(nonZero).toBeGreaterThan(50);
  });

  it('levels the scaled-integer sums cannot hold exactly (huge, very precise, exponent texts) are summed in decimal: same answers', () => {
    // Each book mixes ordinary levels with one the fast path must refuse; the answer must be the
    // all-decimal reference's whichever level the size search lands beyond.
    const awkward: [number, number][] = [[43_000.123456789, 0.30000000000000004], [1e-7, 3e9], [2.5, 1e17], [0.1, 1.5e-7], [9007199254.740993, 1]];
    let checked = 0;
    for (const odd of awkward) {
      for (let run = 0; run < 40; run++) {
        const mid = odd[0];
        const asks = side(mid, 1, 3 + Math.floor(rand() * 10), [0.5, 1, 2]);
        const bids = side(mid * (1 + pick([0.002, 0.01, 0.05])), -1, 3 + Math.floor(rand() * 10), [0.5, 1, 2]);
        const at = 1 + Math.floor(rand() * 2);
        if (run % 2 === 0) asks.splice(at, 0, [asks[at - 1][0] + Number.EPSILON * mid, odd[1]]);
        else bids.splice(at, 0, [bids[at - 1][0] - Number.EPSILON * mid, odd[1]]);
        const input: TupleWalkInput = {
          asks: asks.sort((x, y) => x[0] - y[0]),
          bids: bids.sort((x, y) => y[0] - x[0]),
          notionalUsdt: pick([10, 1e6]),
          buyFeePercent: 0.1,
          sellFeePercent: 0.1,
          withdrawalFee: pick([null, 0.01]),
          minNetPercent: pick([-1, 0, 0.3]),
        };
        expect(walkDepth(input).maxSizeUsdt, JSON.stringify(input)).toBe(referenceMaxSize(input));
        checked += 1;
      }
    }
    expect(checked).toBe(200);
  });

  it('at a threshold the size lands on exactly (net at a book level equal to it), the doubles cannot rule the segment out', () => {
    // One level 100 / 101, no costs: net is exactly 1 % at every size; the threshold 1 keeps the whole book.
    const level = { asks: [[100, 3], [100.5, 2]] as const, bids: [[101, 5]] as const, ...noCosts };
    expect(walk({ ...level, minNetPercent: 1 }).maxSizeUsdt).toBe(referenceMaxSize({ ...level, notionalUsdt: 1000, minNetPercent: 1 }));
    expect(walk({ ...level, minNetPercent: 1 }).maxSizeUsdt).toBe(300);
  });
});

describe('levelsBefore: the quantity and notional before a level, exact on every path', () => {
  const inDecimal = (levels: readonly (readonly [number, number])[], end: number): { qty: string; notional: string } => {
    let qty = new Dec(0);
    let notional = new Dec(0);
    for (const [price, q] of levels.slice(0, end)) {
      if (!(price > 0 && q > 0 && Number.isFinite(price) && Number.isFinite(q))) continue;
      qty = qty.plus(q);
      notional = notional.plus(new Dec(q).times(price));
    }
    return { qty: qty.toString(), notional: notional.toString() };
  };
  const exact = (levels: readonly (readonly [number, number])[]): void => {
    for (let end = 0; end <= levels.length; end++) {
      const got = levelsBefore(levels, end);
      expect({ qty: got.qty.toString(), notional: got.notional.toString() }, `${JSON.stringify(levels)} before ${end}`).toEqual(inDecimal(levels, end));
    }
  };

  it('flat pairs are the tuples in order; flat levels pass through as they are', () => {
    expect(flatLevels([[100, 1], [100.5, 0.25]])).toEqual([100, 1, 100.5, 0.25]);
    const flat = [100, 1];
    expect(flatLevels(flat)).toBe(flat);
    expect(flatLevels([])).toEqual([]);
  });

  it('ordinary books: scaled integers, the same sums as decimal', () => {
    exact([[43_000.12, 0.00012345], [43_000.5, 1.5], [43_001, 2], [43_010.75, 0.001]]);
    exact([[0.000012345, 12_345_678], [0.00001235, 100], [0.0000124, 0.5]]);
  });

  it('a product past a safe integer, a quantity past one, exponent texts: summed in decimal, same sums', () => {
    exact([[1.5, 2], [43_000.123456789, 1234.5678], [43_001, 1]]);
    exact([[100, 1], [101, 0.30000000000000004], [102, 1]]);
    exact([[1e-7, 3e9], [1.5e-7, 2], [2e-7, 1e17], [3e-7, 1]]);
    exact([[2.5, 1e21], [2.6, 1]]);
    // A fraction the scaled integers cannot hold, after a notional it would vanish into.
    exact([[9_000_000_000, 500_000], [1e-7, 1]]);
  });

  it('sums that outgrow a safe integer only when added up: summed in decimal, same sums', () => {
    exact([[9_000_000_000, 900_000], [9_000_000_001, 900_000], [9_000_000_002, 0.5]]);
    exact([[0.123456789012, 1], [1, 12_345.6789]]);
  });

  it('random levels, from a few decimals to all a double holds: the same sums as decimal', () => {
    let seed = 30;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const value = (): number => {
      const raw = rand() * 10 ** Math.floor(rand() * 12 - 6);
      const digits = Math.floor(rand() * 20);
      return digits >= 16 ? raw : Number(raw.toFixed(digits));
    };
    for (let run = 0; run < 300; run++) exact(Array.from({ length: 1 + Math.floor(rand() * 8) }, () => [value(), value()] as const));
  });

  it('levels that cannot be traded (no price, no quantity, not a number) count for nothing', () => {
    exact([[100, 1], [Number.NaN, 2], [101, 0], [0, 3], [102, Number.POSITIVE_INFINITY], [103, 1.5]]);
  });
});
