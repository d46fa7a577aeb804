import { describe, expect, it } from 'vitest';
import { FigureOutOfRangeError } from '../common/money/money.js';
import { computePnl, entryFigures } from './pnl.engine.js';

/** Every expectation is worked out by hand in the comment above it. */
describe('calculator PNL engine (rules: calculator, pnl, calculator-market-data)', () => {
  describe('entry figures (rules: calculator)', () => {
    it('totals are price × quantity, spread is short − spot, percentage over the spot price', () => {
      // 100 × 2 = 200; 110 × 1.5 = 165; 110 − 100 = 10; 10 ÷ 100 × 100 = 10
      expect(entryFigures({ entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 2, entryFuturesQty: 1.5 })).toEqual({
        entrySpotTotalValue: 200,
        entryFuturesTotalValue: 165,
        entrySpread: 10,
        entrySpreadPercentage: 10,
      });
    });

    it('drops binary floating noise: 110.1 − 100.2 is 9.9, not 9.899999999999991', () => {
      // 9.9 ÷ 100.2 × 100 = 9.88023952095808…
      const f = entryFigures({ entrySpotValue: 100.2, entryShortValue: 110.1, entrySpotQty: 1, entryFuturesQty: 1 });
      expect(f.entrySpread).toBe(9.9);
      expect(f.entrySpreadPercentage).toBe(9.88023952);
    });

    it('a futures price below spot gives a negative entry spread', () => {
      // 99 − 100 = −1; −1 ÷ 100 × 100 = −1
      const f = entryFigures({ entrySpotValue: 100, entryShortValue: 99, entrySpotQty: 1, entryFuturesQty: 1 });
      expect(f.entrySpread).toBe(-1);
      expect(f.entrySpreadPercentage).toBe(-1);
    });
  });

  it('profit: spot rose and futures fell', () => {
    // spot (105 − 100) × 2 = 10; futures (110 − 108) × 2 = 4; pnl 14
    // entry total 100×2 + 110×2 = 420; 14 ÷ 420 × 100 = 3.3333…
    // current spread 108 − 105 = 3; 3 ÷ 105 × 100 = 2.857142857…
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 2, entryFuturesQty: 2 },
      { spotBid: 105, futuresAsk: 108, fundingRate: 0.0001 },
    );
    expect(r).toEqual({
      entrySpread: 10,
      entrySpreadPercentage: 10,
      currentSpotPrice: 105,
      currentFuturePrice: 108,
      currentSpread: 3,
      currentSpreadPercentage: 2.85714286,
      fundingRate: 0.0001,
      pnl: 14,
      pnlPercentage: 3.33333333,
      isProfitable: true,
    });
  });

  it('loss: spot fell and futures rose', () => {
    // spot (95 − 100) × 1 = −5; futures (110 − 112) × 1 = −2; pnl −7
    // entry total 100 + 110 = 210; −7 ÷ 210 × 100 = −3.3333…
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 1, entryFuturesQty: 1 },
      { spotBid: 95, futuresAsk: 112, fundingRate: null },
    );
    expect(r.pnl).toBe(-7);
    expect(r.pnlPercentage).toBe(-3.33333333);
    expect(r.isProfitable).toBe(false);
    expect(r.fundingRate).toBeNull();
  });

  it('exactly zero: the spot gain cancels the futures loss, and zero is not profitable', () => {
    // spot (101 − 100) × 2 = 2; futures (110 − 111) × 2 = −2; pnl 0; 0 ÷ 420 × 100 = 0
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 2, entryFuturesQty: 2 },
      { spotBid: 101, futuresAsk: 111, fundingRate: 0 },
    );
    expect(r.pnl).toBe(0);
    expect(Object.is(r.pnl, -0)).toBe(false);
    expect(r.pnlPercentage).toBe(0);
    expect(r.isProfitable).toBe(false);
  });

  it('unchanged prices: pnl 0, not profitable', () => {
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 3, entryFuturesQty: 1 },
      { spotBid: 100, futuresAsk: 110, fundingRate: null },
    );
    expect(r.pnl).toBe(0);
    expect(r.isProfitable).toBe(false);
  });

  it('unequal spot and futures quantities, with a negative current spread', () => {
    // spot (2100 − 2000) × 1.5 = 150; futures (2010 − 2080) × 1.2 = −84; pnl 66
    // entry total 2000×1.5 + 2010×1.2 = 3000 + 2412 = 5412; 66 ÷ 5412 × 100 = 1.2195121951…
    // current spread 2080 − 2100 = −20; −20 ÷ 2100 × 100 = −0.952380952…
    const r = computePnl(
      { entrySpotValue: 2000, entryShortValue: 2010, entrySpotQty: 1.5, entryFuturesQty: 1.2 },
      { spotBid: 2100, futuresAsk: 2080, fundingRate: -0.0002 },
    );
    expect(r.pnl).toBe(66);
    expect(r.pnlPercentage).toBe(1.2195122);
    expect(r.currentSpread).toBe(-20);
    expect(r.currentSpreadPercentage).toBe(-0.95238095);
    expect(r.entrySpread).toBe(10);
    expect(r.entrySpreadPercentage).toBe(0.5);
    expect(r.isProfitable).toBe(true);
  });

  it('negative current spread on its own: futures ask below spot bid', () => {
    // 103 − 105 = −2; −2 ÷ 105 × 100 = −1.9047619047…
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 101, entrySpotQty: 1, entryFuturesQty: 1 },
      { spotBid: 105, futuresAsk: 103, fundingRate: null },
    );
    expect(r.currentSpread).toBe(-2);
    expect(r.currentSpreadPercentage).toBe(-1.9047619);
    // spot +5, futures (101 − 103) = −2; pnl 3; total 201; 3 ÷ 201 × 100 = 1.4925373134…
    expect(r.pnl).toBe(3);
    expect(r.pnlPercentage).toBe(1.49253731);
  });

  it('tiny prices (1e-8) with large quantities', () => {
    // spot (1.1e-8 − 1e-8) × 1e9 = 1; futures (1.2e-8 − 1.1e-8) × 1e9 = 1; pnl 2
    // entry total 1e-8×1e9 + 1.2e-8×1e9 = 10 + 12 = 22; 2 ÷ 22 × 100 = 9.0909…
    // current spread 0; entry spread 2e-9, 2e-9 ÷ 1e-8 × 100 = 20
    const r = computePnl(
      { entrySpotValue: 1e-8, entryShortValue: 1.2e-8, entrySpotQty: 1e9, entryFuturesQty: 1e9 },
      { spotBid: 1.1e-8, futuresAsk: 1.1e-8, fundingRate: null },
    );
    expect(r.pnl).toBe(2);
    expect(r.pnlPercentage).toBe(9.09090909);
    expect(r.currentSpread).toBe(0);
    expect(r.entrySpread).toBe(2e-9);
    expect(r.entrySpreadPercentage).toBe(20);
  });

  it('tiny quantities (1e-8): a profit of a few hundred-millionths is still a profit', () => {
    // spot (102 − 100) × 1e-8 = 2e-8; futures (101 − 100) × 1e-8 = 1e-8; pnl 3e-8
    // entry total (100 + 101) × 1e-8 = 2.01e-6; 3e-8 ÷ 2.01e-6 × 100 = 1.4925373134…
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 101, entrySpotQty: 1e-8, entryFuturesQty: 1e-8 },
      { spotBid: 102, futuresAsk: 100, fundingRate: null },
    );
    expect(r.pnl).toBe(3e-8);
    expect(r.isProfitable).toBe(true);
    expect(r.pnlPercentage).toBe(1.49253731);
  });

  it('large values: price 1e6 × quantity 1e4', () => {
    // spot (1,000,100 − 1,000,000) × 1e4 = 1e6; futures (1,000,500 − 1,000,300) × 1e4 = 2e6; pnl 3e6
    // entry total 1e10 + 1.0005e10 = 2.0005e10; 3e6 ÷ 2.0005e10 × 100 = 0.01499625093…
    const r = computePnl(
      { entrySpotValue: 1e6, entryShortValue: 1_000_500, entrySpotQty: 1e4, entryFuturesQty: 1e4 },
      { spotBid: 1_000_100, futuresAsk: 1_000_300, fundingRate: null },
    );
    expect(r.pnl).toBe(3e6);
    expect(r.pnlPercentage).toBe(0.01499625);
    expect(r.currentSpread).toBe(200);
    expect(entryFigures({ entrySpotValue: 1e6, entryShortValue: 1_000_500, entrySpotQty: 1e4, entryFuturesQty: 1e4 })).toEqual({
      entrySpotTotalValue: 1e10,
      entryFuturesTotalValue: 1.0005e10,
      entrySpread: 500,
      entrySpreadPercentage: 0.05,
    });
  });

  it('uses the spot BID and futures ASK it is given as the current prices (rules: quotes)', () => {
    const r = computePnl(
      { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 1, entryFuturesQty: 1 },
      { spotBid: 99.5, futuresAsk: 109.25, fundingRate: null },
    );
    expect(r.currentSpotPrice).toBe(99.5);
    expect(r.currentFuturePrice).toBe(109.25);
    // (99.5 − 100) + (110 − 109.25) = −0.5 + 0.75 = 0.25
    expect(r.pnl).toBe(0.25);
  });

  describe('money policy: decimal, 8 decimals half away from zero, profitable only above 0 as shown', () => {
    it('break-even: pnl exactly 0 and not profitable (doubles said 5.68e-14 and profitable)', () => {
      // spot (300.22 − 300.01) × 1 = 0.21; futures (300.07 − 300.28) × 1 = −0.21; pnl 0
      // entry total 300.01 + 300.07 = 600.08; 0 ÷ 600.08 × 100 = 0
      const r = computePnl(
        { entrySpotValue: 300.01, entryShortValue: 300.07, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 300.22, futuresAsk: 300.28, fundingRate: null },
      );
      expect(300.22 - 300.01 + (300.07 - 300.28)).toBe(2 ** -44); // what doubles say: 5.68e-14
      expect(r.pnl).toBe(0);
      expect(r.pnlPercentage).toBe(0);
      expect(r.isProfitable).toBe(false);
      // current spread 300.28 − 300.22 = 0.06 exactly (doubles: 0.05999999999996817)
      expect(r.currentSpread).toBe(0.06);
    });

    it('tiny: a profit below half of the 8th decimal rounds to 0 and is not profitable', () => {
      // spot (100.000000004 − 100) × 1 = 0.000000004; futures (100 − 100) × 1 = 0; pnl 4e-9 → 0.00000000
      const r = computePnl(
        { entrySpotValue: 100, entryShortValue: 100, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 100.000000004, futuresAsk: 100, fundingRate: null },
      );
      expect(r.pnl).toBe(0);
      expect(r.isProfitable).toBe(false);
      // exactly half a unit of the 8th decimal rounds away from zero: 5e-9 → 0.00000001, profitable
      const half = computePnl(
        { entrySpotValue: 100, entryShortValue: 100, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 100.000000005, futuresAsk: 100, fundingRate: null },
      );
      expect(half.pnl).toBe(0.00000001);
      expect(half.isProfitable).toBe(true);
    });

    it('negative: −5e-9 rounds away from zero to −0.00000001; −4e-9 to 0 (never −0)', () => {
      const loss = computePnl(
        { entrySpotValue: 100, entryShortValue: 100, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 99.999999995, futuresAsk: 100, fundingRate: null },
      );
      expect(loss.pnl).toBe(-0.00000001);
      expect(loss.isProfitable).toBe(false);
      const tiny = computePnl(
        { entrySpotValue: 100, entryShortValue: 100, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 99.999999996, futuresAsk: 100, fundingRate: null },
      );
      expect(Object.is(tiny.pnl, 0)).toBe(true);
    });

    it('percentages round to 8 decimals: 1 ÷ 3 of the capital is 33.33333333 %', () => {
      // spot (101 − 100) × 1 = 1; futures 0; entry total 100 × 1 + 200 × 1 … use 1 ÷ 3:
      // entry total 1 × 1 + 2 × 1 = 3; spot (2 − 1) × 1 = 1; futures (2 − 2) × 1 = 0; 1 ÷ 3 × 100 = 33.333…
      const r = computePnl(
        { entrySpotValue: 1, entryShortValue: 2, entrySpotQty: 1, entryFuturesQty: 1 },
        { spotBid: 2, futuresAsk: 2, fundingRate: null },
      );
      expect(r.pnl).toBe(1);
      expect(r.pnlPercentage).toBe(33.33333333);
      // 2 ÷ 3 × 100 = 66.666…67 rounds up: entry spread 1 … current spread 0 ÷ 2 = 0
      expect(r.currentSpreadPercentage).toBe(0);
      expect(entryFigures({ entrySpotValue: 3, entryShortValue: 5, entrySpotQty: 1, entryFuturesQty: 1 }).entrySpreadPercentage).toBe(66.66666667);
    });

    it('huge: totals up to just below 1e13 are figures; at 1e13 they are out of range (a 400), never null', () => {
      // 9,999,999 × 1,000,000 = 9,999,999,000,000 < 1e13
      expect(entryFigures({ entrySpotValue: 9_999_999, entryShortValue: 1, entrySpotQty: 1e6, entryFuturesQty: 1 }).entrySpotTotalValue).toBe(9_999_999_000_000);
      // 1e7 × 1e6 = 1e13: out of range
      expect(() => entryFigures({ entrySpotValue: 1e7, entryShortValue: 1, entrySpotQty: 1e6, entryFuturesQty: 1 })).toThrow(
        new FigureOutOfRangeError('entrySpotTotalValue'),
      );
      // the reported overflow: 1e200 × 1e200 is Infinity in doubles (pnl null in JSON)
      expect(() => entryFigures({ entrySpotValue: 1e200, entryShortValue: 1e200, entrySpotQty: 1e200, entryFuturesQty: 1e200 })).toThrow(
        'entrySpotTotalValue is out of range (figures are limited to ±1e13)',
      );
      expect(() =>
        computePnl(
          { entrySpotValue: 1, entryShortValue: 1, entrySpotQty: 1e12, entryFuturesQty: 1 },
          { spotBid: 100, futuresAsk: 1, fundingRate: null },
        ),
      ).toThrow('pnl is out of range (figures are limited to ±1e13)'); // (100 − 1) × 1e12 = 9.9e13
    });
  });
});
