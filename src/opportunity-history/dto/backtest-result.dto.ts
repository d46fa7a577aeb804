import { ApiProperty } from '@nestjs/swagger';
import type { BacktestOperation, BacktestResult } from '../backtest.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import type { TradeMetrics } from '../../common/trade-metrics/metrics.engine.js';
import { EQUITY_CURVE_POINTS, type BreakdownRow, type EquityPoint } from '../../common/trade-metrics/report-series.engine.js';
import { TradeMetricsDto } from '../../common/trade-metrics/trade-metrics.dto.js';

export class EquityPointDto {
  @ApiField.dateTime({ description: 'The look-back start (the capital), then the arrival of an operation, RFC 3339 UTC' })
  time: string;

  @ApiProperty({ example: 1004.2, description: 'capital + Σ netUsd of the operations settled by then' })
  equityUsd: number;
}

export class BacktestBreakdownRowDto {
  @ApiProperty({ example: '2026-03-02', description: 'São Paulo day YYYY-MM-DD, week (its Monday, YYYY-MM-DD) or month YYYY-MM' })
  period: string;

  @ApiField.integer({ minimum: 1, example: 14, description: 'Completed + expired operations that arrived in the period' })
  trades: number;

  @ApiProperty({ example: 3.2 })
  netUsd: number;

  @ApiProperty({ example: 64.3, description: 'Percent of those with netUsd > 0' })
  winRate: number;
}

/** What the metrics add to a backtest: each completed or expired operation is one trade. */
export interface BacktestReport {
  metrics: TradeMetrics;
  equityCurve: EquityPoint[];
  breakdown: BreakdownRow[];
}

export class BacktestOperationDto {
  @ApiField.dateTime({ example: '2026-03-02T14:00:00.000Z', description: 'RFC 3339 UTC' })
  entry: string;

  @ApiField.dateTime({ example: '2026-03-02T14:30:00.000Z', description: 'entry + transferMinutes, RFC 3339 UTC' })
  arrival: string;

  @ApiField.enum(['completed', 'expired', 'unresolved'])
  status: string;

  @ApiProperty({ example: 0.62, description: 'Spread on the basis at entry, percent' })
  entrySpread: number;

  @ApiProperty({ type: Number, nullable: true, example: 0.48, description: 'Gross spread at exit, percent; 0 when expired; null when unresolved' })
  exitGrossSpread: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.18, description: 'netUsd ÷ capital × 100; null when unresolved' })
  netPercent: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 4.8 })
  grossUsd: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1.8 })
  netUsd: number | null;

  @ApiProperty({ example: false, description: 'Some fee of the entry sample was a default value' })
  costsEstimated: boolean;

  static from(op: BacktestOperation): BacktestOperationDto {
    return { ...op, entry: new Date(op.entry).toISOString(), arrival: new Date(op.arrival).toISOString() };
  }
}

/** The `backtest` rule with the `windows` rule's rules; aggregates exclude unresolved operations. */
export class BacktestResultDto {
  @ApiField.integer({ minimum: 0, example: 12, description: 'completed + expired + unresolved' })
  trades: number;

  @ApiField.integer({ minimum: 0, example: 9 })
  completed: number;

  @ApiField.integer({ minimum: 0, example: 2 })
  expired: number;

  @ApiField.integer({ minimum: 0, example: 1, description: 'Still in transit with the window open at the end of the history' })
  unresolved: number;

  @ApiField.integer({ minimum: 0, example: 3, description: 'Windows that passed while the capital was in transit' })
  skippedBusy: number;

  @ApiField.integer({ minimum: 0, example: 1, description: 'Windows with no executable sample' })
  skippedInfeasible: number;

  @ApiField.integer({ minimum: 0, example: 4, description: 'Operations whose entry sample used a default fee' })
  estimatedCosts: number;

  @ApiProperty({ example: 41.2 })
  grossUsd: number;

  @ApiProperty({ example: 14.7 })
  netUsd: number;

  @ApiProperty({ example: 1.47, description: 'Σ netUsd ÷ capital × 100' })
  netPercent: number;

  @ApiProperty({ example: 72.7, description: 'Percent of completed + expired with netUsd > 0; 0 when none' })
  winRate: number;

  @ApiProperty({ type: [BacktestOperationDto], maxItems: 200, description: 'The last 200 operations, oldest first' })
  history: BacktestOperationDto[];

  @ApiProperty({ type: TradeMetricsDto, description: 'Over the completed and expired operations, each one trade closed at its arrival' })
  metrics: TradeMetricsDto;

  @ApiProperty({ type: [EquityPointDto], maxItems: EQUITY_CURVE_POINTS, description: 'Equity after each settled operation, downsampled by time to at most 500 points' })
  equityCurve: EquityPointDto[];

  @ApiProperty({ type: [BacktestBreakdownRowDto], description: 'Per São Paulo day, week or month (request member breakdown), oldest first; periods without operations are left out' })
  breakdown: BacktestBreakdownRowDto[];

  static from(result: BacktestResult, report: BacktestReport): BacktestResultDto {
    return {
      ...result,
      history: result.history.map((op) => BacktestOperationDto.from(op)),
      metrics: TradeMetricsDto.from(report.metrics),
      equityCurve: report.equityCurve.map((p) => ({ time: new Date(p.time).toISOString(), equityUsd: p.equityUsd })),
      breakdown: report.breakdown,
    };
  }
}
