import { toSaoPauloRfc3339 } from '../common/time/sao-paulo.js';
import type { OperationDto } from './dto/operation.dto.js';

/** The `csv` rule's export columns, in order, with the operation member each one carries. */
export const CSV_COLUMNS = [
  ['id', 'id'],
  ['status', 'status'],
  ['strategy', 'strategy'],
  ['asset', 'asset'],
  ['buy_exchange', 'buyExchange'],
  ['sell_exchange', 'sellExchange'],
  ['quantity', 'quantity'],
  ['short_quantity', 'shortQuantity'],
  ['entry_buy_price', 'entryBuyPrice'],
  ['entry_sell_price', 'entrySellPrice'],
  ['exit_buy_price', 'exitBuyPrice'],
  ['exit_sell_price', 'exitSellPrice'],
  ['trading_fees', 'tradingFees'],
  ['withdrawal_fees', 'withdrawalFees'],
  ['funding', 'funding'],
  ['fees_estimated', 'feesEstimated'],
  ['gross_pnl', 'grossPnl'],
  ['net_pnl', 'netPnl'],
  ['net_pnl_pct', 'netPnlPct'],
  ['opened_at', 'openedAt'],
  ['closed_at', 'closedAt'],
  ['source', 'source'],
  ['external_id', 'externalId'],
  ['notes', 'notes'],
] as const satisfies readonly (readonly [string, keyof OperationDto])[];

export type CsvColumn = (typeof CSV_COLUMNS)[number][0];
export const CSV_HEADER: string[] = CSV_COLUMNS.map(([column]) => column);

/** Columns whose values are dates; they are written in São Paulo time. */
const DATE_MEMBERS = new Set<keyof OperationDto>(['openedAt', 'closedAt']);

const FORMULA_START = /^[=+\-@\t\r]/;
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** One operation as CSV cells (rules: csv): plain decimals, true/false, empty for null. */
export function toCsvCells(op: OperationDto): string[] {
  return CSV_COLUMNS.map(([, member]) => {
    const value = op[member];
    if (value === null) return '';
    if (typeof value === 'number') return plainDecimal(value);
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (DATE_MEMBERS.has(member)) return toSaoPauloRfc3339(Date.parse(value));
    return neutraliseFormula(value);
  });
}

/** A text cell that a spreadsheet would run as a formula gets a leading apostrophe. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The import's inverse of neutraliseFormula. */
export function restoreFormula(text: string): string {
  return NEUTRALISED.test(text) ? text.slice(1) : text;
}

/**
 * Decimal notation without an exponent. The digits are those of JavaScript's shortest
 * round-trip form, so parsing the text gives back exactly the same double.
 */
export function plainDecimal(value: number): string {
  const text = String(value);
  if (!text.includes('e')) return text;
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, fraction = '', exp] = match;
  const digits = `${lead}${fraction}`;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
