import { describe, expect, it } from 'vitest';
import { collectRouteSamples, type SpotQuote } from './route-samples.js';
import type { RouteCostsProvider } from '../market-data/route-costs.js';

const costs: RouteCostsProvider = {
  costsOf: () => ({ buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: null, withdrawalFeeUsd: 1, feesEstimated: true, executable: true }),
} as unknown as RouteCostsProvider;
const at = new Date('2026-11-26T12:00:00Z');
const quote = (exchange: string, bid: number, ask: number): SpotQuote => ({ exchange, ticker: 'ETH-USDT', bid, ask, volume: 1000 } as SpotQuote);

describe('route samples: the gross spread by the money rule', () => {
  it('is decimal, rounded once to 8 decimals: (3.1 − 3) ÷ 3 × 100 = 3.33333333 (doubles give 3.3333333333333335)', () => {
    const [sample] = collectRouteSamples([quote('binance', 2.99, 3), quote('okx', 3.1, 3.11)], at, 0, costs);
    expect(sample.grossSpreadPercent).toBe(3.33333333);
    expect(((3.1 - 3) / 3) * 100).not.toBe(3.33333333);
  });

  it('keeps a route whose spread rounds to the threshold exactly, and not one a unit below it', () => {
    // (1.001 − 1) ÷ 1 × 100 = 0.1 exactly in decimal; in doubles 0.09999999999998899.
    expect(((1.001 - 1) / 1) * 100).toBeLessThan(0.1);
    const kept = collectRouteSamples([quote('binance', 0.99, 1), quote('okx', 1.001, 1.002)], at, 0.1, costs);
    expect(kept.map((s) => [s.buyExchange, s.sellExchange, s.grossSpreadPercent])).toEqual([['binance', 'okx', 0.1]]);
    const dropped = collectRouteSamples([quote('binance', 0.99, 1), quote('okx', 1.0009999999, 1.002)], at, 0.1, costs);
    expect(dropped).toEqual([]);
  });

  it('skips a quote without a positive ask and routes within one exchange', () => {
    const samples = collectRouteSamples([quote('binance', 1, 0), quote('okx', 2, 2.1), quote('gate', 2.2, 2.3)], at, -100, costs);
    expect(samples.map((s) => `${s.buyExchange}->${s.sellExchange}`)).toEqual(['okx->gate', 'gate->okx']);
  });
});
