import { AppError } from '../common/errors/app-error.js';
import { Dec } from '../common/money/money.js';
import { saoPauloDayResolver, saoPauloStartOfDay, saoPauloDayOf } from '../common/time/sao-paulo.js';
import { computeMetrics, type TradeMetrics } from '../common/trade-metrics/metrics.engine.js';
import type { ClosedTrade, MetricsPeriod } from '../common/trade-metrics/trade.js';

/** A closed operation of the summary's range, in closing order. */
export interface MetricsOperation {
  openedAt: number;
  closedAt: number;
  netPnl: number;
  /** Σ entry price × quantity of its legs, as decimal text. */
  entryNotional: string;
}

export interface JournalMetricsRange {
  /** The summary's `from` (inclusive), null when unbounded. */
  from: number | null;
  /** The summary's `to` (exclusive). */
  to: number;
  now: number;
  /** The `capital` parameter, when given. */
  capital?: number;
}

/**
 * The trade metrics of a journal summary: each closed operation is one trade (its netPnl as
 * stored). The capital is the `capital` parameter, or else the sum of the entry notionals of the
 * operations closed on the range's first São Paulo day with a closed operation. The period runs
 * from `from` (or that first day's midnight) to `to` capped at now, stretched to the last close.
 * Without closed operations no figure depends on the capital (a unit capital is used); with
 * some whose first day's entry notionals sum to 0, the capital must be given.
 */
export const CAPITAL_NEEDED = 'capital is required when the entry notionals of the first day sum to 0';

/**
 * The shortest period whose figures are extrapolated: below it `cagr`, `sharpe`, `sortino`,
 * `calmar` (annualised) and `tradesPerDay` are null, as one 20-minute trade would otherwise read as
 * a yearly growth of hundreds of percent. A journal's period often starts on the day of its first
 * close, unlike a backtest's, whose look-back the client chose.
 */
export const MIN_EXTRAPOLATED_PERIOD_MS = 7 * 86_400_000;

export function journalMetrics(operations: readonly MetricsOperation[], range: JournalMetricsRange): TradeMetrics {
  const capital = range.capital ?? defaultCapital(operations) ?? 1;
  if (capital <= 0) throw AppError.invalid(CAPITAL_NEEDED);
  const trades: ClosedTrade[] = operations.map((op) => ({ openedAt: op.openedAt, closedAt: op.closedAt, profitUsd: op.netPnl }));
  const period = journalPeriod(operations, range);
  const metrics = computeMetrics(trades, capital, period);
  if (period.end - period.start >= MIN_EXTRAPOLATED_PERIOD_MS) return metrics;
  return { ...metrics, cagr: null, tradesPerDay: null, sharpe: null, sortino: null, calmar: null };
}

/** Σ entry notionals of the operations closed on the first São Paulo day that has any. */
export function defaultCapital(operations: readonly MetricsOperation[]): number | null {
  const first = operations[0];
  if (!first) return null;
  const dayOf = saoPauloDayResolver();
  const firstDay = dayOf(first.closedAt);
  let sum = new Dec(0);
  for (const op of operations) {
    if (dayOf(op.closedAt) !== firstDay) break;
    sum = sum.plus(op.entryNotional);
  }
  return sum.toNumber();
}

export function journalPeriod(operations: readonly MetricsOperation[], range: JournalMetricsRange): MetricsPeriod {
  const first = operations[0];
  const last = operations[operations.length - 1];
  const firstDayStart = first ? saoPauloStartOfDay(saoPauloDayOf(first.closedAt)).getTime() : range.now;
  const start = range.from ?? Math.min(firstDayStart, range.now);
  const end = Math.max(Math.min(range.to, range.now), last ? last.closedAt + 1 : 0, start + 1);
  return { start, end };
}
