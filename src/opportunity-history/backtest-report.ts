import { computeMetrics } from '../common/trade-metrics/metrics.engine.js';
import { breakdownOf, equityCurveOf } from '../common/trade-metrics/report-series.engine.js';
import type { ClosedTrade, MetricsPeriod } from '../common/trade-metrics/trade.js';
import type { CalendarUnit } from '../common/time/sao-paulo.js';
import type { BacktestReport } from './dto/backtest-result.dto.js';

/**
 * The span a backtest's metrics cover: its look-back, stretched to the last arrival when an
 * operation that expired near the end arrives after it (the end is exclusive).
 */
export function backtestPeriod(trades: readonly ClosedTrade[], range: { from: Date; to: Date }): MetricsPeriod {
  const lastClose = trades.length === 0 ? Number.NEGATIVE_INFINITY : (trades[trades.length - 1]?.closedAt ?? 0);
  return { start: range.from.getTime(), end: Math.max(range.to.getTime(), lastClose + 1) };
}

/** Metrics, equity curve and breakdown of a backtest's settled operations. */
export function backtestReport(trades: readonly ClosedTrade[], capital: number, period: MetricsPeriod, unit: CalendarUnit): BacktestReport {
  return {
    metrics: computeMetrics(trades, capital, period),
    equityCurve: equityCurveOf(trades, capital, period),
    breakdown: breakdownOf(trades, unit),
  };
}
