import { CSV_COLUMNS, CSV_HEADER, restoreFormula } from './journal-csv.js';
import type { OperationFields } from './journal-operation.entity.js';
import { checkOperationInput } from './operation-input.js';

/**
 * One CSV row of the import (rules: csv) to stored fields, or the message for its line. Pure.
 * Messages name the CSV columns (`entry_buy_price is required`), which is what the trader edits.
 */
export type RowResult = { ok: true; fields: OperationFields } | { ok: false; message: string };

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NUMBER_MEMBERS = new Set<string>([
  'quantity', 'shortQuantity', 'entryBuyPrice', 'entrySellPrice', 'exitBuyPrice', 'exitSellPrice',
  'tradingFees', 'withdrawalFees', 'funding',
]);
/** Export-only columns: the id is the database's, status and results are derived. */
const IGNORED = new Set<string>(['id', 'status', 'gross_pnl', 'net_pnl', 'net_pnl_pct']);
const TEXT_MEMBERS = new Set<string>(['strategy', 'asset', 'buyExchange', 'sellExchange', 'source', 'externalId', 'notes']);
const SNAKE_OF = new Map<string, string>(CSV_COLUMNS.map(([column, member]) => [member, column]));

/** The header problem, or undefined when it has every export column once (any order). */
export function headerProblem(header: string[]): string | undefined {
  const names = header.map((h) => h.trim().toLowerCase());
  const complete = names.length === CSV_HEADER.length && CSV_HEADER.every((c) => names.includes(c));
  return complete ? undefined : `CSV header must be: ${CSV_HEADER.join(',')}`;
}

export function rowToFields(email: string, header: string[], cells: string[]): RowResult {
  if (cells.length !== header.length) {
    return { ok: false, message: `row has ${cells.length} columns, expected ${header.length}` };
  }
  const plain: Record<string, unknown> = {};
  let status = '';
  header.forEach((name, i) => {
    const column = name.trim().toLowerCase();
    const cell = cells[i] ?? '';
    if (column === 'status') status = cell.trim().toLowerCase();
    if (IGNORED.has(column)) return;
    const member = CSV_COLUMNS.find(([c]) => c === column)?.[1] as string;
    plain[member] = cellValue(member, cell);
  });
  plain.source ??= 'import';
  const statusMessage = statusProblem(status, plain.closedAt);
  if (statusMessage) return { ok: false, message: statusMessage };
  const result = checkOperationInput({ ...plain, email });
  return result.ok ? result : { ok: false, message: toColumnNames(result.message) };
}

function cellValue(member: string, cell: string): unknown {
  const text = cell.trim();
  if (text === '') return undefined;
  if (NUMBER_MEMBERS.has(member)) return NUMERIC.test(text) ? Number(text) : text;
  if (member === 'feesEstimated') return text === 'true' ? true : text === 'false' ? false : text;
  if (TEXT_MEMBERS.has(member)) return restoreFormula(member === 'notes' ? cell : text);
  return text;
}

/** The status column is derived from closed_at; when given it must agree with it. */
function statusProblem(status: string, closedAt: unknown): string | undefined {
  if (status === '') return undefined;
  if (status !== 'open' && status !== 'closed') return 'status must be one of open, closed';
  if (status === 'closed' && closedAt === undefined) return 'closed_at is required';
  if (status === 'open' && closedAt !== undefined) return 'closed_at must be empty for an open operation';
  return undefined;
}

function toColumnNames(message: string): string {
  return message.replace(/\b[a-z][A-Za-z]*\b/g, (word) => SNAKE_OF.get(word) ?? word);
}
