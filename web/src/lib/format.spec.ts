import { describe, expect, it } from 'vitest';
import { NONE, price, saoPauloDayLabel, saoPauloDayTicks, saoPauloTime } from './format';

describe('price', () => {
  it.each([
    [0.00002215, '0.00002215'],
    [0.000022153456, '0.0000221535'],
    [1.88123456, '1.88123'],
    [97_010.5, '97,010.5'],
    [97_010.55, '97,010.55'],
    [64_150.256, '64,150.26'],
    [1_234_567.891, '1,234,567.89'],
    [0, '0'],
    [-0.00002215, '-0.00002215'],
    [-3.5, '-3.5'],
  ])('%s reads %s', (value, text) => {
    expect(price(value)).toBe(text);
  });

  it('never rounds a nonzero price to 0', () => {
    for (const value of [1e-15, 3.3e-9, 0.00000001, 0.0000182]) expect(Number(price(value))).not.toBe(0);
  });

  it('shows a null or missing price as a dash', () => {
    expect(price(null)).toBe(NONE);
    expect(price(undefined)).toBe(NONE);
  });
});

describe('São Paulo time', () => {
  it('reads an instant on the São Paulo clock (UTC−3), whatever the process zone', () => {
    expect(saoPauloTime('2026-03-02T02:30:05.000Z')).toBe('2026-03-01 23:30:05');
    expect(saoPauloTime('2026-03-02T03:00:00.000Z')).toBe('2026-03-02 00:00:00');
    expect(saoPauloTime(null)).toBe(NONE);
  });

  it('labels a day by its São Paulo date', () => {
    // 01:00 UTC on 2 March is still 1 March in São Paulo.
    expect(saoPauloDayLabel(Date.parse('2026-03-02T01:00:00Z') / 1000)).toBe('Mar 1');
  });
});

describe('saoPauloDayTicks', () => {
  const noon = (day: string): number => Date.parse(`${day}T12:00:00-03:00`) / 1000;

  it('puts one tick on each São Paulo day’s noon within the range', () => {
    expect(saoPauloDayTicks(noon('2026-03-01') - 43_200, noon('2026-03-03') + 43_200, 10)).toEqual([noon('2026-03-01'), noon('2026-03-02'), noon('2026-03-03')]);
  });

  it('one day alone gets its one tick', () => {
    expect(saoPauloDayTicks(noon('2026-03-01') - 43_200, noon('2026-03-01') + 43_200, 10)).toEqual([noon('2026-03-01')]);
  });

  it('labels every n-th day when the days outnumber the room', () => {
    const ticks = saoPauloDayTicks(noon('2026-01-01'), noon('2026-01-30'), 10);
    expect(ticks).toHaveLength(10);
    expect(ticks[1]! - ticks[0]!).toBe(3 * 86_400);
  });
});
