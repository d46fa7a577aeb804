import { AppError, INVALID_REQUEST_BODY } from '../common/errors/app-error.js';
import { EXCHANGE_NAMES, parseExchangeName } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import type { OpportunitySample } from './opportunity-sample.js';

export const IMPORT_MAX_ROWS = 100_000;
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
export const NDJSON = 'application/x-ndjson';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const TOO_MANY = `at most ${IMPORT_MAX_ROWS} rows per import`;

/** The rows of an import body: a parsed JSON array, or NDJSON text (blank lines ignored). */
export function rowsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) {
    if (body.length > IMPORT_MAX_ROWS) throw AppError.invalid(TOO_MANY);
    return body;
  }
  if (typeof body !== 'string') throw AppError.invalid(INVALID_REQUEST_BODY);
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > IMPORT_MAX_ROWS) throw AppError.invalid(TOO_MANY);
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw AppError.invalid(`row ${i + 1}: invalid JSON`);
    }
  });
}

/** Validates every row before anything is stored (rules: recorders); the first bad row is named, from 1. */
export function validateRows(rows: readonly unknown[]): OpportunitySample[] {
  return rows.map((row, i) => {
    const result = sampleOf(row);
    if (typeof result === 'string') throw AppError.invalid(`row ${i + 1}: ${result}`);
    return result;
  });
}

type Check = (value: unknown) => string | null;
const FIELDS = [
  'time', 'ticker', 'buyExchange', 'sellExchange', 'buyPrice', 'sellPrice', 'grossSpreadPercent',
  'buyFeePercent', 'sellFeePercent', 'withdrawalFee', 'withdrawalFeeUsd', 'feesEstimated', 'executable',
] as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const positive: Check = (v) => (isNumber(v) && v > 0 ? null : 'must be a positive number');
const nonNegative: Check = (v) => (isNumber(v) && v >= 0 ? null : 'must be a number of 0 or more');
const exchange: Check = (v) =>
  typeof v === 'string' && parseExchangeName(v) ? null : `must be one of ${EXCHANGE_NAMES.join(', ')}`;
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');

// Any of the five known exchanges is accepted, not only the configured ones: history may have
// been recorded under another EXCHANGES setting.
const CHECKS: Record<(typeof FIELDS)[number], Check> = {
  time: (v) => (isRfc3339(v) ? null : 'must be an RFC 3339 timestamp'),
  ticker: (v) => (typeof v === 'string' && toCanonicalTicker(v) ? null : 'is invalid'),
  buyExchange: exchange,
  sellExchange: exchange,
  buyPrice: positive,
  sellPrice: positive,
  grossSpreadPercent: (v) => (isNumber(v) ? null : 'must be a number'),
  buyFeePercent: nonNegative,
  sellFeePercent: nonNegative,
  withdrawalFee: nonNegative,
  withdrawalFeeUsd: nonNegative,
  feesEstimated: boolean,
  executable: boolean,
};

/** RFC 3339 with an offset, and a real calendar day (V8 alone would read 02-30 as 03-02). */
function isRfc3339(value: unknown): boolean {
  if (typeof value !== 'string' || !RFC3339.test(value) || Number.isNaN(Date.parse(value))) return false;
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
}

/** The sample, or the row's first failure: missing members first (rules: errors), then the others in order. */
function sampleOf(row: unknown): OpportunitySample | string {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'must be a JSON object';
  const r = row as Record<string, unknown>;
  const missing = FIELDS.find((field) => r[field] === undefined || r[field] === null);
  if (missing) return `${missing} is required`;
  for (const field of FIELDS) {
    const problem = CHECKS[field](r[field]);
    if (problem) return `${field} ${problem}`;
  }
  const volume = r.volume24h ?? null;
  if (volume !== null && nonNegative(volume)) return 'volume24h must be a number of 0 or more';
  const buyExchange = parseExchangeName(r.buyExchange as string) as string;
  const sellExchange = parseExchangeName(r.sellExchange as string) as string;
  if (buyExchange === sellExchange) return 'buyExchange and sellExchange must differ';
  return {
    time: new Date(r.time as string),
    ticker: toCanonicalTicker(r.ticker as string) as string,
    buyExchange,
    sellExchange,
    buyPrice: r.buyPrice as number,
    sellPrice: r.sellPrice as number,
    grossSpreadPercent: r.grossSpreadPercent as number,
    buyFeePercent: r.buyFeePercent as number,
    sellFeePercent: r.sellFeePercent as number,
    withdrawalFee: r.withdrawalFee as number,
    withdrawalFeeUsd: r.withdrawalFeeUsd as number,
    feesEstimated: r.feesEstimated as boolean,
    executable: r.executable as boolean,
    volume24h: volume as number | null,
  };
}
