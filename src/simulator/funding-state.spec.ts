import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { FundingBook } from './funding-state.js';
import { DEFAULT_SIM_SYMBOLS, buildInstrument } from './instruments.js';

describe('default simulated funding', () => {
  const instruments = DEFAULT_SIM_SYMBOLS.map(buildInstrument);
  const book = new FundingBook(instruments);
  const entries = instruments.flatMap((i) => EXCHANGE_NAMES.map((e) => book.get(e, i.ticker))).filter((f) => f !== undefined);
  /** Percent per 8 hours, whatever the interval. */
  const per8hPercent = entries.map((f) => ((f.fundingRate ?? NaN) * 100 * 8) / (f.intervalHours ?? NaN));

  it('pays what perpetuals usually pay: most within ±0.03 % per 8 h, none beyond -0.02 % to 0.05 %', () => {
    expect(entries).toHaveLength(instruments.length * EXCHANGE_NAMES.length);
    const within = per8hPercent.filter((p) => Math.abs(p) <= 0.03 + 1e-12).length;
    expect(within / per8hPercent.length).toBeGreaterThanOrEqual(0.8);
    for (const p of per8hPercent) {
      expect(p).toBeGreaterThanOrEqual(-0.02 - 1e-12);
      expect(p).toBeLessThanOrEqual(0.05 + 1e-12);
    }
  });

  it('has both signs, some zero, and pays less per settlement on a shorter interval', () => {
    expect(per8hPercent.some((p) => p < 0)).toBe(true);
    expect(per8hPercent.some((p) => p === 0)).toBe(true);
    const hourly = entries.filter((f) => f.intervalHours === 1 && f.fundingRate !== 0);
    expect(hourly.length).toBeGreaterThan(0);
    for (const f of hourly) expect(Math.abs(f.fundingRate ?? NaN)).toBeLessThanOrEqual(0.05 / 100 / 8 + 1e-12);
  });
});
