import { describe, expect, it } from 'vitest';
import { validateFunding } from './funding-validation.js';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';

const known = new Set(['BTC-USDT', 'ETH-USDT']);

describe('validateFunding (PUT /_sim/funding)', () => {
  it('accepts the `operating` rule shape; omitted members stay undefined, null is kept', () => {
    expect(validateFunding([
      { exchange: 'OKX', ticker: 'btcusdt', fundingRate: -0.0001, intervalHours: 4, nextFundingTime: '2030-01-01T08:00:00Z', markPrice: 97_000 },
      { exchange: 'gate', ticker: 'ETH-USDT', fundingRate: null, intervalHours: null },
    ], known)).toEqual({
      ok: true,
      value: [
        { exchange: 'okx', ticker: 'BTC-USDT', fundingRate: -0.0001, intervalHours: 4, nextFundingTime: Date.UTC(2030, 0, 1, 8), markPrice: 97_000 },
        { exchange: 'gate', ticker: 'ETH-USDT', fundingRate: null, intervalHours: null },
      ],
    });
  });

  it.each([
    [{}, 'body must be an array of funding rates'],
    [[], 'body must contain at least one funding rate'],
    [[{ ticker: 'BTC-USDT', fundingRate: 0 }], '[0].exchange is required'],
    [[{ exchange: 'kraken', ticker: 'BTC-USDT', fundingRate: 0 }], `[0].exchange must be one of ${EXCHANGE_LIST}`],
    [[{ exchange: 'okx', ticker: 'SOL-USDT', fundingRate: 0 }], '[0].ticker SOL-USDT is not simulated'],
    [[{ exchange: 'okx', ticker: 'BTC-USDT' }], '[0].fundingRate is required'],
    [[{ exchange: 'okx', ticker: 'BTC-USDT', fundingRate: '0.1' }], '[0].fundingRate must be a number between -1 and 1, or null'],
    [[{ exchange: 'okx', ticker: 'BTC-USDT', fundingRate: 0, intervalHours: 0 }], '[0].intervalHours must be a number of hours from more than 0 to 168, or null'],
    [[{ exchange: 'okx', ticker: 'BTC-USDT', fundingRate: 0, nextFundingTime: 'tomorrow' }], '[0].nextFundingTime must be Unix milliseconds or an RFC 3339 time, or null'],
    [[{ exchange: 'okx', ticker: 'BTC-USDT', fundingRate: 0, markPrice: -1 }], '[0].markPrice must be a positive number, or null'],
  ])('%j → %s', (body, message) => {
    expect(validateFunding(body, known)).toEqual({ ok: false, message });
  });
});
