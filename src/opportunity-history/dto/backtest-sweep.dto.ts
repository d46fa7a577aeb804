import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { Required } from '../../common/validation/required.decorator.js';
import { MAX_SWEEP_THRESHOLDS, MAX_SWEEP_TRANSFERS, SWEEP_SORT_KEYS } from '../sweep-params.js';

/**
 * Body of POST /v1/opportunity-history/backtest/sweep. As for the backtest, the DTO reports
 * missing members only; parseSweepRequest checks the rest in order.
 */
export class BacktestSweepRequestDto {
  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiField.exchange({ description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiField.exchange({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiField.integer({ minimum: 1, maximum: 90, example: 30, description: 'Look-back in days, 1-90' })
  @Required()
  days: unknown;

  @ApiProperty({
    type: 'array', items: { type: 'number', minimum: 0, maximum: 100 }, minItems: 1, maxItems: MAX_SWEEP_THRESHOLDS, example: [0.2, 0.3, 0.4],
    description: `Spread thresholds in percent, 0-100, 1 to ${MAX_SWEEP_THRESHOLDS} distinct values`,
  })
  @Required()
  thresholds: unknown;

  @ApiProperty({
    type: 'array', items: { type: 'integer', minimum: 0, maximum: 1440 }, minItems: 1, maxItems: MAX_SWEEP_TRANSFERS, example: [0, 15, 30],
    description: `Minutes the capital is in transit, 0-1440, 1 to ${MAX_SWEEP_TRANSFERS} distinct values`,
  })
  @Required()
  transferMinutes: unknown;

  @ApiField.enum(['net', 'gross'], { required: false, default: 'net', description: 'Decides when an operation is entered' })
  @Allow()
  basis?: unknown;

  @ApiField.number({ required: false, minimum: 10, maximum: 10000000, default: 1000, example: 1000, description: 'USD, 10 to 10,000,000' })
  @Allow()
  capital?: unknown;

  @ApiField.enum(SWEEP_SORT_KEYS, { required: false, default: 'netUsd', description: 'Ranking key, best first (least maxDrawdownUsd; sharpe null last)' })
  @Allow()
  sort?: unknown;
}

export class BacktestSweepRowDto {
  @ApiProperty({ example: 0.3 })
  threshold: number;

  @ApiField.integer({ minimum: 0, example: 15 })
  transferMinutes: number;

  @ApiField.integer({ minimum: 0, example: 12, description: 'As the backtest\'s trades: completed + expired + unresolved' })
  trades: number;

  @ApiProperty({ example: 14.7, description: 'As the backtest\'s netUsd' })
  netUsd: number;

  @ApiProperty({ example: 8.4, description: 'As the backtest\'s metrics.maxDrawdownUsd' })
  maxDrawdownUsd: number;

  @ApiProperty({ type: Number, nullable: true, example: 2.4, description: 'As the backtest\'s metrics.sharpe' })
  sharpe: number | null;
}

export class BacktestSweepResultDto {
  @ApiProperty({ type: [BacktestSweepRowDto], maxItems: MAX_SWEEP_THRESHOLDS * MAX_SWEEP_TRANSFERS, description: 'One row per threshold × transfer time, ranked by sort' })
  rows: BacktestSweepRowDto[];
}
