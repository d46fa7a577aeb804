import { describe, expect, it } from 'vitest';
import { summarizeJournal, type SummaryOperation, type SummaryPeriod } from './journal-summary.engine.js';

const NOW = Date.parse('2026-04-01T00:00:00Z');
const ALL: SummaryPeriod = { from: null, to: NOW };

/** A long-only trade of 1 unit bought at 100: its gross result is `exitSellPrice − 100`. */
function op(overrides: Partial<SummaryOperation> & { result?: number } = {}): SummaryOperation {
  const { result = 0, ...rest } = overrides;
  return {
    closedAt: Date.parse('2026-03-10T15:00:00Z'),
    strategy: 'cross_exchange',
    asset: 'BTC',
    buyExchange: 'binance',
    sellExchange: 'okx',
    source: 'manual',
    quantity: 1,
    shortQuantity: 0,
    entryBuyPrice: 100,
    exitSellPrice: 100 + result,
    entrySellPrice: null,
    exitBuyPrice: null,
    tradingFees: 0,
    withdrawalFees: 0,
    funding: 0,
    ...rest,
  };
}

describe('journal summary engine (rules: journal)', () => {
  it('no closed operation: zeros, winRate 0, empty series and groups, open count passed through', () => {
    expect(summarizeJournal([], ALL, 3)).toEqual({
      netPnl: 0,
      grossPnl: 0,
      winRate: 0,
      feesPaid: 0,
      fundingReceived: 0,
      openOperations: 3,
      series: [],
      byRoute: [],
      byAsset: [],
      byStrategy: [],
      bySource: [],
    });
  });

  it('a win, a loss and a zero: net 10 − 4 + 0 = 6, one win in three = 33.33333333 %', () => {
    const s = summarizeJournal([op({ result: 10 }), op({ result: -4 }), op({ result: 0 })], ALL, 0);
    expect(s.grossPnl).toBe(6);
    expect(s.netPnl).toBe(6);
    expect(s.winRate).toBe(33.33333333);
    expect(s.byRoute).toEqual([{ key: 'binance->okx', count: 3, grossPnl: 6, netPnl: 6, winRate: 33.33333333 }]);
  });

  it('funding received and paid: +1.5 and −2.5 sum to −1, and move netPnl but not grossPnl', () => {
    const s = summarizeJournal([op({ result: 2, funding: 1.5 }), op({ result: 2, funding: -2.5 })], ALL, 0);
    expect(s.fundingReceived).toBe(-1);
    expect(s.grossPnl).toBe(4);
    expect(s.netPnl).toBe(3);
    // 2 + 1.5 = 3.5 wins; 2 − 2.5 = −0.5 loses
    expect(s.winRate).toBe(50);
  });

  it('fees (estimated or not) are trading plus withdrawal fees and can turn a gross win into a net loss', () => {
    const s = summarizeJournal(
      [op({ result: 1, tradingFees: 0.7, withdrawalFees: 0.4 }), op({ result: 3, tradingFees: 0.1, withdrawalFees: 0.2 })],
      ALL,
      0,
    );
    expect(s.feesPaid).toBe(1.4);
    expect(s.grossPnl).toBe(4);
    expect(s.netPnl).toBe(2.6);
    expect(s.winRate).toBe(50);
  });

  it('a spot/futures pair: both legs count (hand-computed)', () => {
    // long (101 − 100) × 2 = 2, short (102 − 101.5) × 2 = 1; fees 0.5; funding 0.25 → net 2.75
    const pair = op({
      strategy: 'spot_futures',
      quantity: 2,
      exitSellPrice: 101,
      shortQuantity: 2,
      entrySellPrice: 102,
      exitBuyPrice: 101.5,
      tradingFees: 0.5,
      funding: 0.25,
    });
    const s = summarizeJournal([pair], ALL, 0);
    expect([s.grossPnl, s.netPnl, s.feesPaid, s.fundingReceived, s.winRate]).toEqual([3, 2.75, 0.5, 0.25, 100]);
  });

  it('filters by strategy, asset and source', () => {
    const ops = [
      op({ result: 1, strategy: 'funding', asset: 'ETH', source: 'import' }),
      op({ result: 2, strategy: 'funding', asset: 'BTC', source: 'import' }),
      op({ result: 4, strategy: 'other', asset: 'ETH', source: 'import' }),
      op({ result: 8, strategy: 'funding', asset: 'ETH', source: 'manual' }),
    ];
    expect(summarizeJournal(ops, { ...ALL, strategy: 'funding' }, 0).netPnl).toBe(11);
    expect(summarizeJournal(ops, { ...ALL, asset: 'ETH' }, 0).netPnl).toBe(13);
    expect(summarizeJournal(ops, { ...ALL, source: 'import' }, 0).netPnl).toBe(7);
    expect(summarizeJournal(ops, { ...ALL, strategy: 'funding', asset: 'ETH', source: 'import' }, 0).netPnl).toBe(1);
  });

  it('the period is half-open: closedAt = from counts, closedAt = to does not', () => {
    const from = Date.parse('2026-03-01T03:00:00Z');
    const to = Date.parse('2026-03-02T03:00:00Z');
    const ops = [
      op({ result: 1, closedAt: from - 1 }),
      op({ result: 2, closedAt: from }),
      op({ result: 4, closedAt: to - 1 }),
      op({ result: 8, closedAt: to }),
    ];
    const s = summarizeJournal(ops, { from, to }, 0);
    expect(s.netPnl).toBe(6);
    expect(s.series).toEqual([{ date: '2026-03-01', netPnl: 6, cumulativeNetPnl: 6 }]);
  });

  it('operations on both sides of a São Paulo midnight fall on two days, ascending, with a running total', () => {
    const ops = [
      op({ result: -3, closedAt: Date.parse('2026-03-02T03:00:00.000Z') }), // 00:00 on 2 March in São Paulo
      op({ result: 5, closedAt: Date.parse('2026-03-02T02:59:59.999Z') }), // 23:59:59.999 on 1 March
      op({ result: 1, closedAt: Date.parse('2026-03-01T12:00:00Z') }),
    ];
    expect(summarizeJournal(ops, ALL, 0).series).toEqual([
      { date: '2026-03-01', netPnl: 6, cumulativeNetPnl: 6 },
      { date: '2026-03-02', netPnl: -3, cumulativeNetPnl: 3 },
    ]);
  });

  it('2018, daylight saving time (-02:00): 02:30 UTC is already the next São Paulo day', () => {
    const ops = [
      op({ result: 7, closedAt: Date.parse('2018-01-16T01:59:00Z') }), // 23:59 on 15 Jan (-02:00)
      op({ result: 2, closedAt: Date.parse('2018-01-16T02:30:00Z') }), // 00:30 on 16 Jan; -03:00 would say 15 Jan
    ];
    expect(summarizeJournal(ops, ALL, 0).series).toEqual([
      { date: '2018-01-15', netPnl: 7, cumulativeNetPnl: 7 },
      { date: '2018-01-16', netPnl: 2, cumulativeNetPnl: 9 },
    ]);
  });

  it('groups: route key buy->sell, ordered by netPnl descending, ties by key', () => {
    const ops = [
      op({ result: 1, buyExchange: 'bybit', sellExchange: 'gate', asset: 'SOL', source: 'import' }),
      op({ result: 5, buyExchange: 'okx', sellExchange: 'binance', asset: 'ETH' }),
      op({ result: -2, asset: 'ETH', strategy: 'funding' }),
      op({ result: 1, buyExchange: 'bitget', sellExchange: 'gate', asset: 'XRP', source: 'import' }),
    ];
    const s = summarizeJournal(ops, ALL, 0);
    expect(s.byRoute.map((g) => [g.key, g.netPnl])).toEqual([
      ['okx->binance', 5],
      ['bitget->gate', 1],
      ['bybit->gate', 1],
      ['binance->okx', -2],
    ]);
    expect(s.byAsset).toEqual([
      { key: 'ETH', count: 2, grossPnl: 3, netPnl: 3, winRate: 50 },
      { key: 'SOL', count: 1, grossPnl: 1, netPnl: 1, winRate: 100 },
      { key: 'XRP', count: 1, grossPnl: 1, netPnl: 1, winRate: 100 },
    ]);
    expect(s.byStrategy.map((g) => [g.key, g.count, g.netPnl])).toEqual([
      ['cross_exchange', 3, 7],
      ['funding', 1, -2],
    ]);
    expect(s.bySource.map((g) => [g.key, g.count, g.netPnl])).toEqual([
      ['manual', 2, 3],
      ['import', 2, 2],
    ]);
  });

  it('sums round once at the end: ten results of 0.1 are 1, not 0.9999999999999999', () => {
    const s = summarizeJournal(Array.from({ length: 10 }, () => op({ result: 0.1 })), ALL, 0);
    expect(s.netPnl).toBe(1);
    expect(s.series[0]?.cumulativeNetPnl).toBe(1);
  });

  describe('money policy: decimal sums of the operations as shown, rounded once', () => {
    it('break-even, tiny, negative, zero: each operation rounded once, the totals summed exactly', () => {
      const ops = [
        // break-even: long (300.22 − 300.01) = 0.21, short (300.07 − 300.28) = −0.21: 0, not a win
        op({ entryBuyPrice: 300.01, exitSellPrice: 300.22, shortQuantity: 1, entrySellPrice: 300.07, exitBuyPrice: 300.28 }),
        // gross 0.000000005 → 0.00000001; net 0.000000005 − 0.000000015 = −0.00000001
        op({ exitSellPrice: 100.000000005, tradingFees: 0.000000015 }),
        // gross 0.000000004 → 0; net −0.000000011 → −0.00000001
        op({ exitSellPrice: 100.000000004, withdrawalFees: 0.000000015 }),
        // gross 0.00000001; net 0.000000005 − 0.000000015 + 0.00000002 = 0.00000001: a win
        op({ exitSellPrice: 100.000000005, tradingFees: 0.000000015, funding: 0.00000002 }),
      ];
      const s = summarizeJournal(ops, ALL, 0);
      // fees 3 × 0.000000015 = 0.000000045 → 0.00000005 (doubles: 4.4999…e-8 → 0.00000004)
      expect([s.netPnl, s.grossPnl, s.winRate, s.feesPaid, s.fundingReceived]).toEqual([-0.00000001, 0.00000002, 25, 0.00000005, 0.00000002]);
      expect(s.series).toEqual([{ date: '2026-03-10', netPnl: -0.00000001, cumulativeNetPnl: -0.00000001 }]);
    });

    it('many small figures add up without drift: 0.1 ten thousand times is 1000', () => {
      const s = summarizeJournal(Array.from({ length: 10_000 }, () => op({ result: 0.5, tradingFees: 0.1, funding: -0.1 })), ALL, 0);
      // per operation: gross 0.5, net 0.5 − 0.1 − 0.1 = 0.3; × 10,000
      expect([s.grossPnl, s.netPnl, s.feesPaid, s.fundingReceived]).toEqual([5000, 3000, 1000, -1000]);
    });

    it('win rate is a percent rounded once: 2 wins in 3 = 66.66666667', () => {
      expect(summarizeJournal([op({ result: 1 }), op({ result: 1 }), op({ result: -1 })], ALL, 0).winRate).toBe(66.66666667);
    });

    it('huge: totals of in-range figures above 1e13 are still sums, not errors (the limit is per operation)', () => {
      // 2 × 8,999,999,999,999.99 = 17,999,999,999,999.98 → the nearest double, 17999999999999.98
      const whale = op({ quantity: 1e6, entryBuyPrice: 1e6, exitSellPrice: 9_999_999.99999999 });
      expect(summarizeJournal([whale, whale], ALL, 0)).toMatchObject({ grossPnl: 17_999_999_999_999.98, netPnl: 17_999_999_999_999.98 });
    });
  });
});
