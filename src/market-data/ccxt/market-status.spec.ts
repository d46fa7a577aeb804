import type { MarketInterface } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { marketStatusOf } from './market-status.js';

const market = (active: boolean | undefined, info: Record<string, unknown>): MarketInterface => ({ symbol: 'FOO/USDT', active, info }) as unknown as MarketInterface;

describe('market status as the venues state it (rules: tickers)', () => {
  it.each([
    // venue row as each venue lists it, ccxt's active, status
    ['binance spot halt', false, { status: 'HALT' }, 'halted', 'halted: status HALT'],
    ['binance spot delisted', false, { status: 'BREAK' }, 'delisted', 'delisted: status BREAK'],
    ['binance USDⓈ-M settling', false, { status: 'SETTLING', contractType: 'PERPETUAL' }, 'halted', 'halted: status SETTLING'],
    ['binance USDⓈ-M closed', false, { status: 'CLOSE' }, 'delisted', 'delisted: status CLOSE'],
    ['bybit closed', false, { status: 'Closed' }, 'delisted', 'delisted: status Closed'],
    ['okx suspend', false, { state: 'suspend' }, 'halted', 'halted: state suspend'],
    ['gate spot untradable', false, { trade_status: 'untradable' }, 'halted', 'halted: trade_status untradable'],
    ['gate futures delisting', true, { in_delisting: true }, 'delisting', 'delisting: in_delisting true'],
    ['bitget spot halt', false, { status: 'halt' }, 'halted', 'halted: status halt'],
    ['bitget spot offline', false, { status: 'offline' }, 'delisted', 'delisted: status offline'],
    ['bitget futures maintain', false, { symbolStatus: 'maintain' }, 'halted', 'halted: symbolStatus maintain'],
    ['bitget futures off', false, { symbolStatus: 'off' }, 'delisted', 'delisted: symbolStatus off'],
    ['an inactive market with no known field', false, { status: 'weird' }, 'halted', 'halted: inactive'],
  ])('%s', (_name, active, info, state, reason) => {
    expect(marketStatusOf(market(active, info))).toEqual({ state, reason });
  });

  it.each([
    ['binance', { status: 'TRADING' }], ['bybit', { status: 'Trading' }], ['okx', { state: 'live' }],
    ['gate', { trade_status: 'tradable' }], ['gate futures', { in_delisting: false }], ['bitget', { status: 'online', symbolStatus: 'normal' }],
  ])('%s trading', (_name, info) => {
    expect(marketStatusOf(market(true, info))).toEqual({ state: 'trading' });
  });
});
