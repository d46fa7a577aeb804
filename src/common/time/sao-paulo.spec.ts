import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  calendarDaysBetween,
  parseRfc3339,
  SAO_PAULO,
  saoPauloDayOf,
  saoPauloDayResolver,
  saoPauloEndOfDay,
  saoPauloPeriodOf,
  saoPauloStartOfDay,
  toSaoPauloRfc3339,
} from './sao-paulo.js';

describe('São Paulo day math', () => {
  it('today (no DST since 2019): midnight is 03:00 UTC', () => {
    expect(saoPauloStartOfDay('2026-03-01').toISOString()).toBe('2026-03-01T03:00:00.000Z');
    expect(saoPauloEndOfDay('2026-03-01').toISOString()).toBe('2026-03-02T03:00:00.000Z');
  });

  it('an instant just before and just after São Paulo midnight falls on different days', () => {
    expect(saoPauloDayOf(new Date('2026-03-02T02:59:59.999Z'))).toBe('2026-03-01');
    expect(saoPauloDayOf(new Date('2026-03-02T03:00:00.000Z'))).toBe('2026-03-02');
  });

  it('2018 summer time (-02:00): midnight is 02:00 UTC', () => {
    expect(saoPauloStartOfDay('2018-01-15').toISOString()).toBe('2018-01-15T02:00:00.000Z');
    expect(saoPauloDayOf(new Date('2018-01-16T01:30:00Z'))).toBe('2018-01-15');
    expect(saoPauloDayOf(new Date('2018-01-16T02:30:00Z'))).toBe('2018-01-16');
  });

  it('2018-02-17, the day DST ended, lasted 25 hours', () => {
    const start = saoPauloStartOfDay('2018-02-17');
    const end = saoPauloEndOfDay('2018-02-17');
    expect(start.toISOString()).toBe('2018-02-17T02:00:00.000Z');
    expect(end.toISOString()).toBe('2018-02-18T03:00:00.000Z');
    expect(saoPauloDayOf(new Date('2018-02-18T02:30:00Z'))).toBe('2018-02-17');
  });

  it('2018-11-04, the day DST began, had no midnight: it started at 01:00 local (03:00 UTC) and lasted 23 hours', () => {
    expect(saoPauloStartOfDay('2018-11-04').toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(saoPauloEndOfDay('2018-11-04').toISOString()).toBe('2018-11-05T02:00:00.000Z');
    expect(saoPauloDayOf(new Date('2018-11-04T02:59:59Z'))).toBe('2018-11-03');
  });

  it('formats RFC 3339 with the offset in force at that instant', () => {
    expect(toSaoPauloRfc3339(new Date('2026-03-01T12:30:00Z'))).toBe('2026-03-01T09:30:00-03:00');
    expect(toSaoPauloRfc3339(new Date('2018-01-15T12:30:00.250Z'))).toBe('2018-01-15T10:30:00.250-02:00');
  });

  it('formats the seconds on both sides of the 2018 DST changes with the offset then in force', () => {
    // DST ended 2018-02-18 00:00 local (02:00 UTC): the clock went back to 23:00 on the 17th.
    expect(toSaoPauloRfc3339(Date.parse('2018-02-18T01:59:59.999Z'))).toBe('2018-02-17T23:59:59.999-02:00');
    expect(toSaoPauloRfc3339(Date.parse('2018-02-18T02:00:00Z'))).toBe('2018-02-17T23:00:00-03:00');
    // DST began 2018-11-04 00:00 local (03:00 UTC): the clock jumped to 01:00.
    expect(toSaoPauloRfc3339(Date.parse('2018-11-04T02:59:59Z'))).toBe('2018-11-03T23:59:59-03:00');
    expect(toSaoPauloRfc3339(Date.parse('2018-11-04T03:00:00Z'))).toBe('2018-11-04T01:00:00-02:00');
  });

  it('formats exactly as luxon does: every 72 minutes 11 s through 2018-2019, every 61 s around each DST change, and instants before 1914 (local mean time)', () => {
    const viaLuxon = (ms: number): string =>
      DateTime.fromMillis(ms, { zone: SAO_PAULO }).toISO({ suppressMilliseconds: true, includeOffset: true }) as string;
    const instants: number[] = [];
    // Luxon costs about 40 µs an instant: 14,600 over the two years (a step that falls on every
    // minute of the day over time) and 470 within 4 hours either side of each of the three
    // changes (the last three: Brazil abolished DST in 2019) keep the test near half a second.
    for (let t = Date.parse('2018-01-01T00:00:00Z'); t < Date.parse('2020-01-01T00:00:00Z'); t += 4_331_007) instants.push(t);
    for (const change of ['2018-02-18T02:00:00Z', '2018-11-04T03:00:00Z', '2019-02-17T02:00:00Z']) {
      const at = Date.parse(change);
      for (let t = at - 4 * 3_600_000; t < at + 4 * 3_600_000; t += 61_001) instants.push(t);
    }
    // The local-mean-time offset (−03:06:28) is not a whole number of minutes; it ended at 03:06:28 UTC.
    instants.push(Date.parse('1913-12-31T12:00:00Z'), Date.parse('1914-01-01T03:06:27Z'), Date.parse('1914-01-01T03:06:28Z'), Date.parse('1914-01-01T03:30:00.5Z'));
    for (const t of instants) expect(toSaoPauloRfc3339(t)).toBe(viaLuxon(t));
  });

  it('parses RFC 3339 with an offset or Z, and rejects anything else', () => {
    expect(parseRfc3339('2026-03-01T09:30:00-03:00')?.toISOString()).toBe('2026-03-01T12:30:00.000Z');
    expect(parseRfc3339('2026-03-01T12:30:00.5Z')?.toISOString()).toBe('2026-03-01T12:30:00.500Z');
    for (const bad of ['2026-03-01', '2026-03-01T09:30:00', 'yesterday', '2026-02-30T00:00:00Z', '2026-03-01T25:00:00Z']) {
      expect(parseRfc3339(bad)).toBeUndefined();
    }
  });

  it('the cached resolver agrees with saoPauloDayOf across DST changes', () => {
    const resolve = saoPauloDayResolver();
    const from = Date.parse('2018-02-15T00:00:00Z');
    for (let t = from; t < from + 10 * 86_400_000; t += 1_800_000) {
      expect(resolve(t)).toBe(saoPauloDayOf(t));
    }
  });
});

describe('São Paulo periods of a day', () => {
  it('a week starts on Monday; a month is YYYY-MM', () => {
    expect(saoPauloPeriodOf('2026-03-01', 'week')).toBe('2026-02-23'); // Sunday
    expect(saoPauloPeriodOf('2026-03-02', 'week')).toBe('2026-03-02'); // Monday
    expect(saoPauloPeriodOf('2018-11-04', 'week')).toBe('2018-10-29');
    expect(saoPauloPeriodOf('2026-03-31', 'month')).toBe('2026-03');
    expect(saoPauloPeriodOf('2026-03-31', 'day')).toBe('2026-03-31');
  });

  it('counts calendar days with both ends, across DST changes', () => {
    expect(calendarDaysBetween('2026-03-01', '2026-03-01')).toBe(1);
    expect(calendarDaysBetween('2018-11-01', '2018-11-10')).toBe(10);
    expect(calendarDaysBetween('2019-02-10', '2019-02-20')).toBe(11);
  });
});
