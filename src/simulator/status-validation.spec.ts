import { describe, expect, it } from 'vitest';
import { validateHalt, validateRestore } from './status-validation.js';

const known = new Set(['SOL-USDT']);

describe('POST /_sim/halt and /_sim/restore bodies', () => {
  it('reads a halt, the market optional', () => {
    expect(validateHalt({ exchange: 'OKX', ticker: 'SOL-USDT', halted: true }, known)).toEqual({ ok: true, value: { exchange: 'okx', ticker: 'SOL-USDT', halted: true } });
    expect(validateHalt({ exchange: 'gate', ticker: 'SOL-USDT', market: 'FUTURES', halted: false }, known))
      .toEqual({ ok: true, value: { exchange: 'gate', ticker: 'SOL-USDT', market: 'FUTURES', halted: false } });
  });

  it('names the bad field', () => {
    expect(validateHalt({ exchange: 'okx', ticker: 'SOL-USDT' }, known)).toMatchObject({ ok: false, message: expect.stringMatching(/^halted\b/) as string });
    expect(validateHalt({ ticker: 'SOL-USDT', halted: true }, known)).toEqual({ ok: false, message: 'exchange is required' });
    expect(validateRestore({ exchange: 'okx' }, known)).toEqual({ ok: false, message: 'ticker is required' });
    expect(validateRestore([], known)).toEqual({ ok: false, message: 'Invalid request body' });
  });

  it('reads a restore', () => {
    expect(validateRestore({ exchange: 'bitget', ticker: 'SOL-USDT', market: 'SPOT' }, known)).toEqual({ ok: true, value: { exchange: 'bitget', ticker: 'SOL-USDT', market: 'SPOT' } });
  });
});
