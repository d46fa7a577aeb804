import { describe, expect, it } from 'vitest';
import { computePnl, type PnlInput } from './journal-pnl.engine.js';

const base: PnlInput = {
  status: 'closed',
  quantity: 0,
  shortQuantity: 0,
  entryBuyPrice: null,
  entrySellPrice: null,
  exitBuyPrice: null,
  exitSellPrice: null,
  tradingFees: 0,
  withdrawalFees: 0,
  funding: 0,
};

describe('journal PnL engine (D10)', () => {
  it('an open operation has no results', () => {
    expect(computePnl({ ...base, status: 'open', quantity: 1, entryBuyPrice: 100 })).toEqual({
      grossPnl: null,
      netPnl: null,
      netPnlPct: null,
    });
  });

  it('spot long + futures short, with fees and funding received', () => {
    // long: (101 - 100) × 2 = 2; short: (102 - 101.5) × 2 = 1; gross 3
    // net = 3 - 0.4 - 0.1 + 0.5 = 3; capital = 100×2 + 102×2 = 404; pct = 3/404×100
    const r = computePnl({
      ...base,
      quantity: 2,
      shortQuantity: 2,
      entryBuyPrice: 100,
      exitSellPrice: 101,
      entrySellPrice: 102,
      exitBuyPrice: 101.5,
      tradingFees: 0.4,
      withdrawalFees: 0.1,
      funding: 0.5,
    });
    expect(r).toEqual({ grossPnl: 3, netPnl: 3, netPnlPct: 0.74257426 });
  });

  it('funding paid lowers the result', () => {
    const r = computePnl({ ...base, quantity: 1, entryBuyPrice: 100, exitSellPrice: 100, funding: -2 });
    expect(r).toEqual({ grossPnl: 0, netPnl: -2, netPnlPct: -2 });
  });

  it('a leg with quantity 0 adds 0 even with prices set; null prices are fine there', () => {
    const r = computePnl({
      ...base,
      shortQuantity: 3,
      entrySellPrice: 50,
      exitBuyPrice: 40,
      entryBuyPrice: 999,
      exitSellPrice: null,
    });
    expect(r).toEqual({ grossPnl: 30, netPnl: 30, netPnlPct: 20 });
  });

  it('a losing cross-exchange trade, rounded to 8 decimals without float noise', () => {
    // (100 - 101.1) × 1 = -1.1 (binary: -1.0999999999999943)
    const r = computePnl({ ...base, quantity: 1, entryBuyPrice: 101.1, exitSellPrice: 100, tradingFees: 0.1 });
    expect(r).toEqual({ grossPnl: -1.1, netPnl: -1.2, netPnlPct: -1.18694362 });
  });
});
