import { describe, expect, it } from 'vitest';
import { isDenied, parseDenylist } from '../market-model/symbol-denylist.js';
import { compareContracts, contractMismatches, type VenueCoin } from './contract-identity.engine.js';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';

// Addresses shaped like the real ones (hex for EVM chains, base58 for Solana); values are made up.
const PEPE_ETH = '0x6982508145454Ce325dDbE47a25d4ec3d2311933';
const OTHER_ETH = '0x1111111111111111111111111111111111111111';
const SOL_A = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';

describe('contract identity engine (rules: tickers)', () => {
  it('one coin when an address on a common network matches, EVM case ignored', () => {
    expect(compareContracts([{ network: 'ERC20', address: PEPE_ETH }], [{ network: 'erc20', address: PEPE_ETH.toLowerCase() }]))
      .toEqual({ kind: 'same', network: 'ERC20' });
  });

  it('two coins when both give an address on a common network and none match', () => {
    expect(compareContracts([{ network: 'ERC20', address: PEPE_ETH }], [{ network: 'ERC20', address: OTHER_ETH }]))
      .toEqual({ kind: 'different', network: 'ERC20', addresses: [PEPE_ETH.toLowerCase(), OTHER_ETH] });
  });

  it('one match on any common network is enough (a bridged token may differ on another chain)', () => {
    const a = [{ network: 'ERC20', address: PEPE_ETH }, { network: 'BEP20', address: OTHER_ETH }];
    const b = [{ network: 'ERC20', address: PEPE_ETH }, { network: 'BEP20', address: '0x2222222222222222222222222222222222222222' }];
    expect(compareContracts(a, b).kind).toBe('same');
  });

  it('base58 addresses are compared exactly: a case change is another address', () => {
    expect(compareContracts([{ network: 'SOL', address: SOL_A }], [{ network: 'SOL', address: SOL_A.toLowerCase() }]).kind).toBe('different');
  });

  it('unknown without a common network, or without an address on one side', () => {
    expect(compareContracts([{ network: 'ERC20', address: PEPE_ETH }], [{ network: 'SOL', address: SOL_A }])).toEqual({ kind: 'unknown' });
    expect(compareContracts([{ network: 'ERC20', address: PEPE_ETH }], [{ network: 'ERC20', address: '  ' }])).toEqual({ kind: 'unknown' });
    expect(compareContracts([], [])).toEqual({ kind: 'unknown' });
  });

  const coin = (exchange: VenueCoin['exchange'], address: string, asset = 'PEPE'): VenueCoin => ({ exchange, asset, contracts: address ? [{ network: 'ERC20', address }] : [] });

  it('two venues proving two coins: both are named, each with both addresses', () => {
    const out = contractMismatches([coin('gate', PEPE_ETH), coin('bitget', OTHER_ETH)]);
    expect(out.map((m) => [m.exchange, m.address, m.otherAddress])).toEqual([
      ['bitget', OTHER_ETH, PEPE_ETH.toLowerCase()],
      ['gate', PEPE_ETH.toLowerCase(), OTHER_ETH],
    ]);
    expect(out[0]?.reason).toBe(`contract mismatch: PEPE on bitget is ${OTHER_ETH} on ERC20, on gate ${PEPE_ETH.toLowerCase()}: another coin under the same ticker`);
  });

  it('three venues: the odd one out is named, the two that agree keep trading', () => {
    const out = contractMismatches([coin('gate', PEPE_ETH), coin('bitget', OTHER_ETH), coin('binance', PEPE_ETH)]);
    expect(out.map((m) => m.exchange)).toEqual(['bitget']);
  });

  it('a venue without addresses is never named; a tie of two against two names all four', () => {
    expect(contractMismatches([coin('gate', PEPE_ETH), coin('okx', ''), coin('binance', PEPE_ETH)])).toEqual([]);
    const tie = contractMismatches([coin('gate', PEPE_ETH), coin('binance', PEPE_ETH), coin('bitget', OTHER_ETH), coin('bybit', OTHER_ETH)]);
    expect(tie.map((m) => m.exchange).sort()).toEqual(['binance', 'bitget', 'bybit', 'gate']);
  });

  it('assets are judged apart', () => {
    expect(contractMismatches([coin('gate', PEPE_ETH, 'PEPE'), coin('bitget', OTHER_ETH, 'FLOKI')])).toEqual([]);
  });
});

describe('SYMBOL_DENYLIST', () => {
  it('reads assets, pairs and exchange:ticker, any case', () => {
    expect(parseDenylist(' pepe, Binance:floki , gate:WIF-usdt,')).toEqual({
      ok: true, entries: [{ symbol: 'PEPE' }, { exchange: 'binance', symbol: 'FLOKI' }, { exchange: 'gate', symbol: 'WIF-USDT' }],
    });
    expect(parseDenylist('')).toEqual({ ok: true, entries: [] });
  });

  it('names the first bad item', () => {
    expect(parseDenylist('PEPE,kraken:BTC')).toEqual({ ok: false, message: `SYMBOL_DENYLIST: "kraken:BTC" names no known exchange (${EXCHANGE_LIST})` });
    expect(parseDenylist('PEPE-XYZ')).toMatchObject({ ok: false, message: expect.stringContaining('"PEPE-XYZ" is not a ticker') });
  });

  it('a base asset denies every pair of it; an exchange entry only that exchange', () => {
    const parsed = parseDenylist('PEPE,binance:FLOKI-USDT,WBTC');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(isDenied(parsed.entries, 'okx', 'PEPE-USDT')).toBe(true);
    expect(isDenied(parsed.entries, 'binance', 'FLOKI-USDT')).toBe(true);
    expect(isDenied(parsed.entries, 'gate', 'FLOKI-USDT')).toBe(false);
    expect(isDenied(parsed.entries, 'gate', 'WBTC-USDT')).toBe(true);
    expect(isDenied(parsed.entries, 'gate', 'W-BTC')).toBe(false);
  });
});
