import { AppError } from '../common/errors/app-error.js';
import type { SpreadBasis } from './backtest.engine.js';
import { absent, basisOf, capitalOf, parseRouteLookBack, type RouteLookBack } from './route-params.js';

export const SWEEP_SORT_KEYS = ['netUsd', 'trades', 'maxDrawdownUsd', 'sharpe'] as const;
export type SweepSortKey = (typeof SWEEP_SORT_KEYS)[number];
export const MAX_SWEEP_THRESHOLDS = 20;
export const MAX_SWEEP_TRANSFERS = 10;

export interface SweepRequest extends RouteLookBack {
  basis: SpreadBasis;
  capital: number;
  thresholds: number[];
  transferMinutes: number[];
  sort: SweepSortKey;
}

export type RawSweep = Partial<Record<keyof SweepRequest, unknown>>;

const THRESHOLDS_RULE = `thresholds must be an array of 1 to ${MAX_SWEEP_THRESHOLDS} numbers from 0 to 100`;
const TRANSFERS_RULE = `transferMinutes must be an array of 1 to ${MAX_SWEEP_TRANSFERS} integers from 0 to 1440`;

/** Checks ticker, buy, sell, days, thresholds, transferMinutes, basis, capital, sort in that order. */
export function parseSweepRequest(raw: RawSweep, exchanges: readonly string[]): SweepRequest {
  const route = parseRouteLookBack(raw, exchanges, 'body');
  const thresholds = listOf(raw.thresholds, MAX_SWEEP_THRESHOLDS, (v) => v >= 0 && v <= 100, THRESHOLDS_RULE, 'thresholds');
  const transferMinutes = listOf(raw.transferMinutes, MAX_SWEEP_TRANSFERS, (v) => Number.isInteger(v) && v >= 0 && v <= 1440, TRANSFERS_RULE, 'transferMinutes');
  const basis = basisOf(raw.basis);
  const capital = capitalOf(raw.capital);
  return { ...route, thresholds, transferMinutes, basis, capital, sort: sortOf(raw.sort) };
}

function listOf(value: unknown, max: number, valid: (v: number) => boolean, rule: string, field: string): number[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > max) throw AppError.invalid(rule);
  const list: number[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'number' || !Number.isFinite(item) || !valid(item)) throw AppError.invalid(rule);
    list.push(item);
  }
  if (new Set(list).size !== list.length) throw AppError.invalid(`${field} must not repeat a value`);
  return list;
}

function sortOf(value: unknown): SweepSortKey {
  if (absent(value) || value === '') return 'netUsd';
  const key = SWEEP_SORT_KEYS.find((k) => k === value);
  if (!key) throw AppError.invalid(`sort must be one of ${SWEEP_SORT_KEYS.join(', ')}`);
  return key;
}
