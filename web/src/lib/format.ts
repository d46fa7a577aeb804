/** Display only: the service has already rounded every figure. */
export function num(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined) return '–';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
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

export const EXCHANGES = ['binance', 'bybit', 'okx', 'gate', 'bitget'] as const;
