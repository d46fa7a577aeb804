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

  it('keeps the contract address each venue gives in its own row', () => {
    const currencies = {
      PEPE: { code: 'PEPE', networks: {
        ERC20: { network: 'ERC20', info: { chain: 'ERC20', contractAddress: '0x6982508145454Ce325dDbE47a25d4ec3d2311933' } }, // binance, bybit, bitget
        BSC: { network: 'BEP20', info: { name: 'BSC', addr: ' 0xabc ' } }, // gate
        SOL: { network: 'SOL', info: { chain: 'PEPE-Solana', ctAddr: '' } }, // okx, none given
      } },
    } as unknown as Currencies;
    expect(toNetworks(currencies).map((n) => [n.network, n.contract])).toEqual([
      ['ERC20', '0x6982508145454Ce325dDbE47a25d4ec3d2311933'], ['BEP20', '0xabc'], ['SOL', undefined],
    ]);
  });

  it('no currencies (private endpoint without API keys) means no networks known', () => {
    expect(toNetworks(undefined)).toEqual([]);
    expect(toNetworks({})).toEqual([]);
  });
});
