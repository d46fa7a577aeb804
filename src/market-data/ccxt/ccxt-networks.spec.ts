import type { Currencies } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { toNetworks } from './ccxt-networks.js';

describe('toNetworks', () => {
  it('lists every network of every currency with its states and withdrawal fee', () => {
    const currencies = {
      ETH: { code: 'ETH', networks: {
        ERC20: { network: 'ERC20', withdraw: true, deposit: false, fee: 0.0012 },
        arbitrum: { withdraw: false, deposit: true, fee: undefined }, // no code from ccxt: the key, upper-cased
      } },
      USDT: { code: 'USDT', networks: { TRC20: { network: 'TRC20', fee: 1 }, broken: null } }, // states unknown: open
    } as unknown as Currencies;
    expect(toNetworks(currencies)).toEqual([
      { asset: 'ETH', network: 'ERC20', withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.0012 },
      { asset: 'ETH', network: 'ARBITRUM', withdrawEnabled: false, depositEnabled: true, withdrawFee: null },
      { asset: 'USDT', network: 'TRC20', withdrawEnabled: true, depositEnabled: true, withdrawFee: 1 },
    ]);
  });

  it('no currencies (private endpoint without API keys) means no networks known', () => {
    expect(toNetworks(undefined)).toEqual([]);
    expect(toNetworks({})).toEqual([]);
  });
});
