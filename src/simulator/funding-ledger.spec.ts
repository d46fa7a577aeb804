import { describe, expect, it } from 'vitest';
import { FundingBook } from './funding-state.js';
import { buildInstrument } from './instruments.js';

const H = 3_600_000;
const START = Date.UTC(2026, 10, 26, 13, 30);

function book() {
  return new FundingBook([buildInstrument('ETH')], START);
}

describe('simulated funding history', () => {
  it('a seeded 32-day past on the starting interval, up to the start, the same on every read', () => {
    const b = book();
    const seeded = b.history('okx', 'ETH-USDT', START);
    expect(seeded).toHaveLength(32 * 3);
    expect(seeded.at(-1)?.settledAt).toBe(Date.UTC(2026, 10, 26, 8));
    expect(seeded.every((s) => s.intervalHours === 8 && s.settledAt % (8 * H) === 0)).toBe(true);
    expect(book().history('okx', 'ETH-USDT', START)).toEqual(seeded);
  });

  it('settles each scheduled payment at the rate set at its moment', () => {
    const b = book();
    b.apply({ exchange: 'okx', ticker: 'ETH-USDT', fundingRate: 0.0004 }, START);
    const after = b.history('okx', 'ETH-USDT', Date.UTC(2026, 10, 27, 0, 0, 1));
    expect(after.slice(-2).map((s) => [new Date(s.settledAt).toISOString(), s.rate])).toEqual([
      ['2026-11-26T16:00:00.000Z', 0.0004], ['2026-11-27T00:00:00.000Z', 0.0004],
    ]);
  });

  it('an explicit next time settles once, then the schedule of the interval set resumes', () => {
    const b = book();
    const at = START + 60_000;
    b.apply({ exchange: 'bybit', ticker: 'ETH-USDT', fundingRate: -0.0002, intervalHours: 4, nextFundingTime: at }, START);
    const rows = b.history('bybit', 'ETH-USDT', START + 5 * H);
    expect(rows.slice(-2).map((s) => [s.settledAt, s.rate, s.intervalHours])).toEqual([
      [at, -0.0002, 4], [Date.UTC(2026, 10, 26, 16), -0.0002, 4],
    ]);
    expect(b.get('bybit', 'ETH-USDT')?.nextFundingTime).toBe('schedule');
  });
});
