import { describe, expect, it } from 'vitest';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';
import {
  validateDrop, validateFault, validatePause, validateQuotes, validateWalk, validateLoad,
} from './control-validation.js';

const KNOWN = new Set(['BTC-USDT', 'ETH-USDT']);
const quote = { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 100, ask: 101 };

describe('validateQuotes', () => {
  it('accepts a full quote and normalises exchange, market and ticker forms', () => {
    const result = validateQuotes([{ exchange: 'OKX', market: 'futures', ticker: 'ethusdt', bid: 1, ask: 1.5, bidQty: 2, askQty: 3, volume: 9 }], KNOWN);
    expect(result).toEqual({
      ok: true,
      value: [{ exchange: 'okx', market: 'FUTURES', ticker: 'ETH-USDT', bid: 1, ask: 1.5, bidQty: 2, askQty: 3, volume: 9 }],
    });
  });

  it('leaves optional quantities out when not given', () => {
    const result = validateQuotes([quote], KNOWN);
    expect(result.ok && result.value[0]).toEqual({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 100, ask: 101 });
  });

  it.each([
    [{ not: 'an array' }, 'body must be an array of quotes'],
    [[], 'body must contain at least one quote'],
    [[42], '[0] must be an object'],
    [[{ ...quote, exchange: undefined }], '[0].exchange is required'],
    [[{ ...quote, exchange: 'kraken' }], `[0].exchange must be one of ${EXCHANGE_LIST}`],
    [[{ ...quote, market: 'MARGIN' }], '[0].market must be SPOT or FUTURES'],
    [[{ ...quote, ticker: 'BTC/EUR!' }], '[0].ticker is invalid'],
    [[{ ...quote, ticker: 'XYZ-USDT' }], '[0].ticker XYZ-USDT is not simulated'],
    [[{ ...quote, bid: 0 }], '[0].bid must be a positive number'],
    [[{ ...quote, ask: '101' }], '[0].ask must be a positive number'],
    [[{ ...quote, bidQty: -1 }], '[0].bidQty must be a positive number'],
    [[{ ...quote, volume: Number.NaN }], '[0].volume must be a positive number'],
    [[quote, { ...quote, bid: 102 }], '[1].ask must be greater than or equal to bid'],
  ])('rejects %j with "%s"', (body, message) => {
    expect(validateQuotes(body, KNOWN)).toEqual({ ok: false, message });
  });
});

describe('validatePause', () => {
  it('builds a filter from the given members only', () => {
    expect(validatePause({ exchange: 'Gate', ticker: 'BTCUSDT', paused: true }, KNOWN)).toEqual({
      ok: true, value: { filter: { exchange: 'gate', ticker: 'BTC-USDT' }, paused: true },
    });
    expect(validatePause({ paused: false }, KNOWN)).toEqual({ ok: true, value: { filter: {}, paused: false } });
  });

  it('requires paused as a boolean', () => {
    expect(validatePause({}, KNOWN)).toEqual({ ok: false, message: 'paused is required' });
    expect(validatePause({ paused: 'yes' }, KNOWN)).toEqual({ ok: false, message: 'paused must be a boolean' });
    expect(validatePause([], KNOWN)).toEqual({ ok: false, message: 'Invalid request body' });
  });
});

describe('validateDrop / validateFault / validateWalk', () => {
  it('drop takes an optional exchange, and no body at all', () => {
    expect(validateDrop(undefined)).toEqual({ ok: true, value: {} });
    expect(validateDrop({ exchange: 'BYBIT' })).toEqual({ ok: true, value: { exchange: 'bybit' } });
    expect(validateDrop({ exchange: 'x' })).toMatchObject({ ok: false });
  });

  it('silence and stall need their flag', () => {
    expect(validateFault({ silent: true }, 'silent')).toEqual({ ok: true, value: { value: true } });
    expect(validateFault({ exchange: 'okx', stalled: false }, 'stalled')).toEqual({ ok: true, value: { exchange: 'okx', value: false } });
    expect(validateFault({ stalled: true }, 'silent')).toEqual({ ok: false, message: 'silent is required' });
  });

  it('walk bounds the interval', () => {
    expect(validateWalk({ enabled: true }, new Set())).toEqual({ ok: true, value: { enabled: true } });
    expect(validateWalk({ enabled: true, intervalMs: 250 }, new Set())).toEqual({ ok: true, value: { enabled: true, intervalMs: 250 } });
    expect(validateWalk({ enabled: true, intervalMs: 10 }, new Set())).toEqual({ ok: false, message: 'intervalMs must be an integer from 50 to 60000' });
    expect(validateWalk({ enabled: true, intervalMs: 100.5 }, new Set())).toMatchObject({ ok: false });
    expect(validateWalk({}, new Set())).toEqual({ ok: false, message: 'enabled is required' });
  });

  it('walk takes the tickers to hold, canonical and simulated', () => {
    const known = new Set(['BTC-USDT', 'ETH-USDT']);
    expect(validateWalk({ enabled: true, hold: ['btc-usdt', 'ETH-USDT'] }, known)).toEqual({ ok: true, value: { enabled: true, hold: ['BTC-USDT', 'ETH-USDT'] } });
    expect(validateWalk({ enabled: false, hold: [] }, known)).toEqual({ ok: true, value: { enabled: false, hold: [] } });
    expect(validateWalk({ enabled: true, hold: ['SOL-USDT'] }, known)).toEqual({ ok: false, message: 'hold[0] SOL-USDT is not simulated' });
    expect(validateWalk({ enabled: true, hold: [7] }, known)).toEqual({ ok: false, message: 'hold[0] is invalid' });
    expect(validateWalk({ enabled: true, hold: 'BTC-USDT' }, known)).toEqual({ ok: false, message: 'hold must be an array of tickers' });
  });

  it('load takes a whole rate up to 200000 and an optional burst share', () => {
    expect(validateLoad({ rate: 40_000 })).toEqual({ ok: true, value: { rate: 40_000 } });
    expect(validateLoad({ rate: 0 })).toEqual({ ok: true, value: { rate: 0 } });
    expect(validateLoad({ rate: 1000, burstShare: 0.5 })).toEqual({ ok: true, value: { rate: 1000, burstShare: 0.5 } });
    expect(validateLoad({ rate: 200_001 })).toEqual({ ok: false, message: 'rate must be an integer from 0 to 200000' });
    expect(validateLoad({ rate: 1.5 })).toMatchObject({ ok: false });
    expect(validateLoad({ rate: 10, burstShare: 0.05 })).toEqual({ ok: false, message: 'burstShare must be a number from 0.1 to 1' });
    expect(validateLoad([])).toEqual({ ok: false, message: 'Invalid request body' });
  });
});
