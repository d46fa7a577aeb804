/** Display only: the service has already rounded every figure. */
export function num(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined) return '–';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** What a cell shows for a figure the API sent as null; the cell's title says why. */
export const NONE = '—';

const PRICE_SIGNIFICANT = 6;
/** Above 10,000 six significant digits would drop the cents a venue still quotes. */
const PRICE_MIN_DECIMALS = 2;
/** Intl's ceiling on fraction digits; a price below 1e-15 would still print its first digits. */
const PRICE_MAX_DECIMALS = 20;

/**
 * A price with the precision its size needs: six significant digits (two decimals at least), so
 * a sub-cent coin keeps its digits where a fixed number of decimals would print 0.
 */
export function price(value: number | null | undefined): string {
  if (value === null || value === undefined) return NONE;
  if (value === 0 || !Number.isFinite(value)) return value.toLocaleString('en-US');
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.min(PRICE_MAX_DECIMALS, Math.max(PRICE_MIN_DECIMALS, PRICE_SIGNIFICANT - 1 - magnitude));
  return value.toLocaleString('en-US', { maximumFractionDigits: decimals });
}

export function pct(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? '–' : `${num(value, digits)} %`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function time(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '–';
}

/** The API's calendar days (journal filters, summary series) are São Paulo days. */
export const SAO_PAULO = 'America/Sao_Paulo';
/** Brazil has kept no summer time since 2019: São Paulo is UTC−3 all year. */
export const SAO_PAULO_NOTE = 'times in São Paulo (UTC−3)';

const spParts = new Intl.DateTimeFormat('en-US', {
  timeZone: SAO_PAULO, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});

/** `2026-03-01 21:30:05`, the São Paulo wall clock of an instant, whatever the browser's zone. */
export function saoPauloTime(iso: string | null | undefined): string {
  if (!iso) return NONE;
  const part: Record<string, string> = {};
  for (const p of spParts.formatToParts(new Date(iso))) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

const spDay = new Intl.DateTimeFormat('en-US', { timeZone: SAO_PAULO, month: 'short', day: 'numeric' });

/** `Mar 1`: the São Paulo day an instant (Unix seconds) falls in. */
export function saoPauloDayLabel(unixSeconds: number): string {
  return spDay.format(new Date(unixSeconds * 1000));
}

const DAY_S = 86_400;
/** Noon in São Paulo is 15:00 UTC: a day's point and tick sit mid-day, away from either midnight. */
const SP_NOON_UTC_S = 15 * 3600;

/**
 * One tick per São Paulo day (at its noon) between `min` and `max` (Unix seconds), every
 * `ceil(days / maxTicks)`-th day when more days than `maxTicks` would crowd the axis.
 */
export function saoPauloDayTicks(min: number, max: number, maxTicks: number): number[] {
  const first = Math.ceil((min - SP_NOON_UTC_S) / DAY_S) * DAY_S + SP_NOON_UTC_S;
  const days = Math.floor((max - first) / DAY_S) + 1;
  if (days <= 0) return [];
  const step = Math.max(1, Math.ceil(days / Math.max(1, maxTicks)));
  const ticks: number[] = [];
  for (let t = first; t <= max; t += step * DAY_S) ticks.push(t);
  return ticks;
}

export const EXCHANGES = ['binance', 'bybit', 'okx', 'gate', 'bitget'] as const;
