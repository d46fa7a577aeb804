import { describe, expect, it } from 'vitest';
import type { CurrencyNetwork, TradingFee } from './market-data-source.js';
import { type CostsSource, MarketCostsBook } from './market-costs.book.js';

const ROUTE = { ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx' };
const net = (network: string, withdrawEnabled: boolean, depositEnabled: boolean, withdrawFee: number | null): CurrencyNetwork =>
  ({ asset: 'ETH', network, withdrawEnabled, depositEnabled, withdrawFee });

/** Answers per exchange from tables; a table set to an Error rejects that call. */
function source(fees: Record<string, TradingFee[] | Error>, networks: Record<string, CurrencyNetwork[] | Error>): CostsSource {
  const answer = <T>(v: T[] | Error | undefined): Promise<T[]> => (v instanceof Error ? Promise.reject(v) : Promise.resolve(v ?? []));
  return { fetchTradingFees: (e) => answer(fees[e]), fetchNetworks: (e) => answer(networks[e]) };
}

async function bookOf(src: CostsSource): Promise<MarketCostsBook> {
  const book = new MarketCostsBook(src);
  await book.refresh('binance');
  await book.refresh('okx');
  return book;
}

describe('MarketCostsBook', () => {
  it('a source without fee and network calls gives the `cost-defaults` rule defaults, estimated and executable', async () => {
    const book = await bookOf({});
    expect(book.costsOf(ROUTE, 2000)).toEqual({
      buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 0.0005, withdrawalFeeUsd: 1, feesEstimated: true, executable: true,
    });
  });

  it('uses the exchanges\' own taker fees and the cheapest network open on both sides', async () => {
    const book = await bookOf(source(
      { binance: [{ ticker: 'ETH-USDT', takerPercent: 0.075 }], okx: [{ ticker: 'ETH-USDT', takerPercent: 0.08 }] },
      {
        // ERC20 is the cheapest withdrawal but okx takes no ERC20 deposits; ARBITRUM is open on both.
        binance: [net('ERC20', true, true, 0.0004), net('ARBITRUM', true, true, 0.0008), net('OPTIMISM', true, true, 0.0001)],
        okx: [net('ERC20', true, false, 0.002), net('ARBITRUM', false, true, 0.0001)],
      },
    ));
    expect(book.costsOf(ROUTE, 2000)).toEqual({
      buyFeePercent: 0.075, sellFeePercent: 0.08, withdrawalFee: 0.0008, withdrawalFeeUsd: 1.6, feesEstimated: false, executable: true,
    });
  });

  it('converts a withdrawal fee by the money rule: 0.07 base at an ask of 3 is 0.21 USD (0.21000000000000002 in doubles), the default 1 USD at 3 is 0.33333333 base', async () => {
    const book = await bookOf(source({}, { binance: [net('ERC20', true, true, 0.07)], okx: [net('ERC20', true, true, 0.2)] }));
    expect(0.07 * 3).not.toBe(0.21);
    expect(book.costsOf(ROUTE, 3)).toMatchObject({ withdrawalFee: 0.07, withdrawalFeeUsd: 0.21 });
    const defaults = await bookOf({});
    expect(defaults.costsOf(ROUTE, 3)).toMatchObject({ withdrawalFee: 0.33333333, withdrawalFeeUsd: 1 });
  });

  it('is not executable when no common network is open for withdrawal out and deposit in', async () => {
    const book = await bookOf(source(
      { binance: [{ ticker: 'ETH-USDT', takerPercent: 0.1 }], okx: [{ ticker: 'ETH-USDT', takerPercent: 0.1 }] },
      { binance: [net('ERC20', false, true, 0.0004), net('ARBITRUM', true, true, 0.0008)], okx: [net('ERC20', true, true, 0.001), net('ARBITRUM', true, false, 0.0001)] },
    ));
    expect(book.costsOf(ROUTE, 2000)).toMatchObject({ executable: false, withdrawalFee: 0.0004, feesEstimated: false });
  });

  it('a missing market fee or asset falls back to the default and marks the sample estimated', async () => {
    const book = await bookOf(source(
      { binance: [{ ticker: 'ETH-USDT', takerPercent: 0.075 }], okx: [] },
      { binance: [net('ERC20', true, true, 0.0004)], okx: [] },
    ));
    expect(book.costsOf(ROUTE, 2000)).toEqual({
      buyFeePercent: 0.075, sellFeePercent: 0.1, withdrawalFee: 0.0005, withdrawalFeeUsd: 1, feesEstimated: true, executable: true,
    });
  });

  it('a failed refresh keeps the previous figures and reports the failed call', async () => {
    let fail = false;
    const fees = (): Promise<TradingFee[]> => (fail ? Promise.reject(new Error('503')) : Promise.resolve([{ ticker: 'ETH-USDT', takerPercent: 0.02 }]));
    const book = new MarketCostsBook({ fetchTradingFees: fees, fetchNetworks: () => Promise.resolve([]) });
    expect(await book.refresh('binance')).toEqual([]);
    fail = true;
    expect(await book.refresh('binance')).toEqual(['fees: Error: 503']);
    expect(book.costsOf(ROUTE, 2000).buyFeePercent).toBe(0.02);
  });

  describe('transferOf (the live stream\'s network and transfer state)', () => {
    it('picks the cheapest network open out of the buy side and into the sell side, skipping a closed one', async () => {
      const book = await bookOf(source({}, {
        // OPTIMISM is cheapest but okx does not list it; ERC20 is cheaper than ARBITRUM but its okx deposit is closed.
        binance: [net('ERC20', true, true, 0.0004), net('ARBITRUM', true, true, 0.0008), net('OPTIMISM', true, true, 0.0001)],
        okx: [net('ERC20', true, false, 0.002), net('ARBITRUM', false, true, 0.0001)],
      }));
      expect(book.transferOf(ROUTE)).toEqual({ network: 'ARBITRUM', transferable: true, executable: true, withdrawalFee: 0.0008 });
    });

    it('a withdrawal closed on the buy side closes the route on that network', async () => {
      const book = await bookOf(source({}, { binance: [net('ERC20', false, true, 0.0004)], okx: [net('ERC20', true, true, 0.001)] }));
      // No open network: not transferable; the fee stays the buy side's cheapest, as the recorder charges it.
      expect(book.transferOf(ROUTE)).toEqual({ network: null, transferable: false, executable: false, withdrawalFee: 0.0004 });
    });

    it('no common network at all: no network, not transferable', async () => {
      const book = await bookOf(source({}, { binance: [net('ERC20', true, true, 0.0004)], okx: [net('TRC20', true, true, 1)] }));
      expect(book.transferOf(ROUTE)).toEqual({ network: null, transferable: false, executable: false, withdrawalFee: 0.0004 });
    });

    it('unknown networks: not transferable (nothing known to be open), executable for the `recorders` rule, fee unknown', async () => {
      const book = await bookOf(source({}, { binance: [net('ERC20', true, true, 0.0004)] }));
      expect(book.transferOf(ROUTE)).toEqual({ network: null, transferable: false, executable: true, withdrawalFee: null });
    });

    it('an open network with a known fee beats one without; among unknown fees the name decides', async () => {
      const book = await bookOf(source({}, {
        binance: [net('ZK', true, true, null), net('BASE', true, true, null), net('ERC20', true, true, 0.01)],
        okx: [net('ZK', true, true, null), net('BASE', true, true, null), net('ERC20', true, true, 0.01)],
      }));
      expect(book.transferOf(ROUTE)).toMatchObject({ network: 'ERC20', withdrawalFee: 0.01 });
      const unknown = await bookOf(source({}, {
        binance: [net('ZK', true, true, null), net('BASE', true, true, null)], okx: [net('ZK', true, true, null), net('BASE', true, true, null)],
      }));
      expect(unknown.transferOf(ROUTE)).toEqual({ network: 'BASE', transferable: true, executable: true, withdrawalFee: null });
    });

    it('fees and networks refresh separately: a failing network call keeps the last networks and leaves the fees alone', async () => {
      let failNetworks = false;
      const book = new MarketCostsBook({
        fetchTradingFees: () => Promise.resolve([{ ticker: 'ETH-USDT', takerPercent: 0.05 }]),
        fetchNetworks: () => (failNetworks ? Promise.reject(new Error('timeout')) : Promise.resolve([net('ERC20', true, true, 0.0004)])),
      });
      expect(await book.refreshKind('binance', 'networks')).toBeNull();
      await book.refreshKind('okx', 'networks');
      failNetworks = true;
      expect(await book.refreshKind('binance', 'networks')).toBe('networks: Error: timeout');
      expect(book.transferOf(ROUTE)).toMatchObject({ network: 'ERC20', transferable: true });
      expect(book.takerFeeOf('binance', 'ETH-USDT')).toBeUndefined();
      expect(await book.refreshKind('binance', 'fees')).toBeNull();
      expect(book.takerFeeOf('binance', 'ETH-USDT')).toBe(0.05);
    });
  });
});
