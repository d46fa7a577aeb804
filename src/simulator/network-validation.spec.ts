import { describe, expect, it } from 'vitest';
import { NetworkBook, validateNetworks } from './network-state.js';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';

const KNOWN = new Set(['BTC', 'ETH']);
const ok = { exchange: 'gate', asset: 'eth', network: 'erc20', withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.001 };

describe('PUT /_sim/networks validation', () => {
  it('accepts an item, upper-casing asset and network', () => {
    expect(validateNetworks([ok], KNOWN)).toEqual({
      ok: true,
      value: [{ exchange: 'gate', asset: 'ETH', network: 'ERC20', withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.001 }],
    });
  });

  it.each([
    [{}, 'body must be an array of networks'],
    [[], 'body must contain at least one network'],
    [[ok, 3], '[1] must be an object'],
    [[{ ...ok, exchange: 'kraken' }], `[0].exchange must be one of ${EXCHANGE_LIST}`],
    [[{ ...ok, asset: 'DOGE' }], '[0].asset must be a simulated base currency'],
    [[{ ...ok, network: 'a b' }], '[0].network must be a name of 1-32 letters, digits, _ or -'],
    [[{ ...ok, depositEnabled: 1 }], '[0].depositEnabled must be a boolean'],
    [[{ ...ok, withdrawFee: -1 }], '[0].withdrawFee must be a number of at least 0'],
  ])('refuses %j naming the first bad member', (body, message) => {
    expect(validateNetworks(body, KNOWN)).toEqual({ ok: false, message });
  });

  it('a later update of the same exchange, asset and network replaces the earlier one', () => {
    const book = new NetworkBook();
    const first = validateNetworks([ok, { ...ok, exchange: 'bitget' }, { ...ok, network: 'ARBITRUM' }], KNOWN);
    const again = validateNetworks([{ ...ok, depositEnabled: true }], KNOWN);
    if (!first.ok || !again.ok) throw new Error('fixtures must be valid');
    [...first.value, ...again.value].forEach((n) => book.apply(n));
    expect(book.byAsset('gate').get('ETH')?.map((n) => [n.network, n.depositEnabled])).toEqual([['ERC20', true], ['ARBITRUM', false]]);
    expect(book.list()).toHaveLength(3);
  });
});
