import { DateTime } from 'luxon';

/**
 * The one place for São Paulo calendar math. Offsets come from the IANA time-zone database
 * through luxon, never from a fixed -03:00: São Paulo observed daylight saving time until 2019.
 */
export const SAO_PAULO = 'America/Sao_Paulo';

const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The São Paulo calendar day (`YYYY-MM-DD`) that contains the instant. Reports place hundreds of
 * thousands of trades: the offset comes from the per-UTC-day cache below (luxon only on the day
 * of a change and before 1914, whose offsets are not whole minutes).
 */
export function saoPauloDayOf(instant: Date | number): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const offset = offsetMinutesAt(ms);
  const localMs = ms + (offset ?? 0) * 60_000;
  if (offset === undefined || localMs < YEAR_0 || localMs >= YEAR_10000) return inSaoPaulo(ms).toISODate() as string;
  return new Date(localMs).toISOString().slice(0, 10);
}

/** The instant São Paulo's day `YYYY-MM-DD` begins (its local midnight). */
export function saoPauloStartOfDay(day: string): Date {
  return DateTime.fromISO(day, { zone: SAO_PAULO }).startOf('day').toJSDate();
}

/** The instant the next São Paulo day begins: the exclusive end of `day`. */
export function saoPauloEndOfDay(day: string): Date {
  // Step to the next calendar date first: adding 24 h to a start that DST moved would keep the shift.
  const next = DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: 1 }).toISODate() as string;
  return saoPauloStartOfDay(next);
}

/**
 * RFC 3339 with São Paulo's offset at that instant; milliseconds only when there are some.
 * An export writes two of these per row, and asking the time-zone database (Intl, through luxon)
 * each time was a quarter of its CPU: the offset is looked up once per UTC day and kept.
 */
export function toSaoPauloRfc3339(instant: Date | number): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const offset = offsetMinutesAt(ms);
  const localMs = ms + (offset ?? 0) * 60_000;
  if (offset === undefined || localMs < YEAR_0 || localMs >= YEAR_10000) {
    return inSaoPaulo(ms).toISO({ suppressMilliseconds: true, includeOffset: true }) as string;
  }
  const local = new Date(localMs).toISOString();
  const clock = ms % 1000 === 0 ? local.slice(0, 19) : local.slice(0, 23);
  return `${clock}${formatOffset(offset)}`;
}

const DAY_MS = 86_400_000;
/** UTC day → São Paulo's offset in minutes through that whole day; bounded, cleared when full. */
const dayOffsets = new Map<number, number | null>();
const DAY_OFFSETS_MAX = 20_000;

/**
 * São Paulo's offset for the UTC day holding `ms`, if it is the same whole number of minutes
 * at both ends of that day (its changes are months apart, so none fell in between); otherwise,
 * on the day of a change, undefined, and the caller asks luxon for that instant alone.
 */
function offsetMinutesAt(ms: number): number | undefined {
  const day = Math.floor(ms / DAY_MS);
  let offset = dayOffsets.get(day);
  if (offset === undefined) {
    const start = inSaoPaulo(day * DAY_MS).offset;
    const end = inSaoPaulo(day * DAY_MS + DAY_MS - 1).offset;
    offset = start === end && Number.isInteger(start) ? start : null;
    if (dayOffsets.size >= DAY_OFFSETS_MAX) dayOffsets.clear();
    dayOffsets.set(day, offset);
  }
  return offset ?? undefined;
}

/** Date#toISOString prints a four-digit year only from 0000-01-01 up to 10000-01-01. */
const YEAR_0 = -62_167_219_200_000;
const YEAR_10000 = 253_402_300_800_000;

function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * Parses an RFC 3339 timestamp (an explicit offset or Z is mandatory, so a value never depends
 * on the server's zone); undefined when the text is not one or is not a real calendar time.
 */
export function parseRfc3339(text: string): Date | undefined {
  if (!RFC_3339.test(text)) return undefined;
  const parsed = DateTime.fromISO(text.replace(' ', 'T'), { setZone: true });
  return parsed.isValid ? parsed.toJSDate() : undefined;
}

/**
 * A day-of function for many instants at once (a summary over 100,000 operations): it keeps
 * the last day's [start, end) and only works out the day again outside it.
 */
export function saoPauloDayResolver(): (instantMs: number) => string {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let day = '';
  return (instantMs: number): string => {
    if (instantMs >= start && instantMs < end) return day;
    day = saoPauloDayOf(instantMs);
    // Within one UTC day of a known whole-minute offset the local day ends at the next local midnight.
    const offset = offsetMinutesAt(instantMs);
    if (offset === undefined) {
      [start, end] = [instantMs, instantMs + 1];
    } else {
      const utcDay = Math.floor(instantMs / DAY_MS) * DAY_MS;
      const localMidnight = Date.parse(`${day}T00:00:00Z`) - offset * 60_000;
      [start, end] = [Math.max(localMidnight, utcDay), Math.min(localMidnight + DAY_MS, utcDay + DAY_MS)];
    }
    return day;
  };
}

function inSaoPaulo(instant: Date | number): DateTime {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return DateTime.fromMillis(ms, { zone: SAO_PAULO });
}

/**
 * SQL for the São Paulo calendar day (`YYYY-MM-DD` text) of a timestamptz column, for a database
 * to group by local day itself. PostgreSQL and PGlite carry the same IANA zone as luxon (their
 * agreement across DST changes and local mean time is tested in journal-summary.e2e-spec.ts). The
 * work is per row read; building day boundaries in JS instead cost one luxon step per day of the
 * requested period (from=1500-01-01: 190,000 days, 7-11 s of CPU).
 */
export function saoPauloDaySql(column: string): string {
  return `to_char(${column} AT TIME ZONE '${SAO_PAULO}', 'YYYY-MM-DD')`;
}

/** Calendar units a report groups São Paulo days into. */
export type CalendarUnit = 'day' | 'week' | 'month';
export const CALENDAR_UNITS: readonly CalendarUnit[] = ['day', 'week', 'month'];

/**
 * The period holding São Paulo day `YYYY-MM-DD`: the day itself, the Monday that starts its
 * week (`YYYY-MM-DD`), or its month (`YYYY-MM`). Pure date arithmetic on the label: once an
 * instant has its São Paulo day, no offset is needed to place the day in a week or a month.
 */
export function saoPauloPeriodOf(day: string, unit: CalendarUnit): string {
  if (unit === 'day') return day;
  if (unit === 'month') return day.slice(0, 7);
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return new Date(date.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from São Paulo day `first` to day `last`, both counted (1 when equal). */
export function calendarDaysBetween(first: string, last: string): number {
  return Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS) + 1;
}
