import type { MarketInterface } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { toTakerFees } from './ccxt-markets.js';

const market = (symbol: string, extra: Partial<MarketInterface>): MarketInterface =>
  ({ symbol, active: true, spot: !symbol.includes(':'), swap: symbol.includes(':'), linear: true, settle: 'USDT', ...extra }) as MarketInterface;

describe('toTakerFees', () => {
  it('gives each active spot market its taker rate in percent, without binary noise', () => {
    const fees = toTakerFees({
      'BTC/USDT': market('BTC/USDT', { taker: 0.0015 }),
      'ETH/USDT': market('ETH/USDT', { taker: 0.001 }),
      'BTC/USDT:USDT': market('BTC/USDT:USDT', { taker: 0.0005 }), // perpetual: not a spot route
      'SOL/USDT': market('SOL/USDT', { taker: 0.001, active: false }),
      'XRP/USDT': market('XRP/USDT', {}), // no rate: unknown, the default (rules: cost-defaults) applies downstream
    });
    expect(fees).toEqual([{ ticker: 'BTC-USDT', takerPercent: 0.15 }, { ticker: 'ETH-USDT', takerPercent: 0.1 }]);
  });
});
