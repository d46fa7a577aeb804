import { DateTime } from 'luxon';

/**
 * The one place for São Paulo calendar math. Offsets come from the IANA time-zone database
 * through luxon, never from a fixed -03:00: São Paulo observed daylight saving time until 2019.
 */
export const SAO_PAULO = 'America/Sao_Paulo';

const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The São Paulo calendar day (`YYYY-MM-DD`) that contains the instant. */
export function saoPauloDayOf(instant: Date | number): string {
  return inSaoPaulo(instant).toISODate() as string;
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

/** RFC 3339 with São Paulo's offset at that instant; milliseconds only when there are some. */
export function toSaoPauloRfc3339(instant: Date | number): string {
  return inSaoPaulo(instant).toISO({ suppressMilliseconds: true, includeOffset: true }) as string;
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
 * the last day's [start, end) and only asks the time-zone database again outside it.
 */
export function saoPauloDayResolver(): (instantMs: number) => string {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let day = '';
  return (instantMs: number): string => {
    if (instantMs >= start && instantMs < end) return day;
    day = saoPauloDayOf(instantMs);
    start = saoPauloStartOfDay(day).getTime();
    end = saoPauloEndOfDay(day).getTime();
    return day;
  };
}

function inSaoPaulo(instant: Date | number): DateTime {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return DateTime.fromMillis(ms, { zone: SAO_PAULO });
}

/**
 * The São Paulo days that overlap [fromMs, toMs), and their boundaries: `bounds[i]` is the start
 * of `days[i]`, and the last bound is the end of the last day (days.length + 1 bounds). Lets a
 * database bucket instants by local day (`width_bucket`) with boundaries from the tz database.
 */
export function saoPauloDaysBetween(fromMs: number, toMs: number): { days: string[]; bounds: Date[] } {
  const days: string[] = [];
  const bounds: Date[] = [];
  if (toMs <= fromMs) return { days, bounds };
  // One DateTime walked day by day: startOf('day') after each step keeps DST days exact.
  let day = inSaoPaulo(fromMs).startOf('day');
  bounds.push(day.toJSDate());
  while (day.toMillis() < toMs) {
    days.push(day.toISODate() as string);
    day = day.plus({ days: 1 }).startOf('day');
    bounds.push(day.toJSDate());
  }
  return { days, bounds };
}
