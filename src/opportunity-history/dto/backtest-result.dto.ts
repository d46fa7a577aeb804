import { ApiProperty } from '@nestjs/swagger';
import type { BacktestOperation, BacktestResult } from '../backtest.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class BacktestOperationDto {
  @ApiField.dateTime({ example: '2026-03-02T14:00:00.000Z', description: 'RFC 3339 UTC' })
  entry: string;

  @ApiField.dateTime({ example: '2026-03-02T14:30:00.000Z', description: 'entry + transferMinutes, RFC 3339 UTC' })
  arrival: string;

  @ApiField.enum(['completed', 'expired', 'unresolved'])
  status: string;

  @ApiProperty({ example: 0.62, description: 'Spread on the basis at entry, percent' })
  entrySpread: number;

  @ApiProperty({ type: Number, nullable: true, example: 0.48, description: '0 when expired; null when unresolved' })
  exitGrossSpread: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.18 })
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

/** SPEC 2.11 with D9's rules; aggregates exclude unresolved operations. */
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

  static from(result: BacktestResult): BacktestResultDto {
    return { ...result, history: result.history.map((op) => BacktestOperationDto.from(op)) };
  }
}
