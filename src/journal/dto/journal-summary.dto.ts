import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { TradeMetricsDto } from '../../common/trade-metrics/trade-metrics.dto.js';

export class SummaryDayDto {
  @ApiField.date({ description: 'São Paulo calendar day' })
  date: string;

  @ApiProperty({ example: 65.4 })
  netPnl: number;

  @ApiProperty({ example: 120.9, description: 'Running total from the first day of the period' })
  cumulativeNetPnl: number;
}

export class SummaryGroupDto {
  @ApiProperty({ example: 'binance->okx', description: 'Route groups: <buyExchange>-><sellExchange>' })
  key: string;

  @ApiField.integer({ minimum: 1, example: 4 })
  count: number;

  @ApiProperty({ example: 140.2 })
  grossPnl: number;

  @ApiProperty({ example: 120.9 })
  netPnl: number;

  @ApiProperty({ example: 75, description: 'Closed operations of the group with netPnl > 0 ÷ its closed operations × 100 (0-100)' })
  winRate: number;
}

/** The `journal` rule over closed operations with closedAt in [from, to). */
export class JournalSummaryDto {
  @ApiProperty({ example: 120.9 })
  netPnl: number;

  @ApiProperty({ example: 140.2 })
  grossPnl: number;

  @ApiProperty({ example: 75, description: 'Closed operations with netPnl > 0 ÷ closed operations × 100; 0 when none' })
  winRate: number;

  @ApiProperty({ example: 25.6, description: 'Trading fees + withdrawal fees' })
  feesPaid: number;

  @ApiProperty({ example: 6.3, description: 'Sum of funding; negative when funding was paid' })
  fundingReceived: number;

  @ApiField.integer({ minimum: 0, example: 2, description: 'Open now (filters apply, the period does not)' })
  openOperations: number;

  @ApiProperty({ type: [SummaryDayDto] })
  series: SummaryDayDto[];

  @ApiProperty({ type: [SummaryGroupDto] })
  byRoute: SummaryGroupDto[];

  @ApiProperty({ type: [SummaryGroupDto] })
  byAsset: SummaryGroupDto[];

  @ApiProperty({ type: [SummaryGroupDto] })
  byStrategy: SummaryGroupDto[];

  @ApiProperty({ type: [SummaryGroupDto] })
  bySource: SummaryGroupDto[];

  @ApiProperty({
    type: [SummaryGroupDto],
    description: 'Per São Paulo day (YYYY-MM-DD), week (its Monday, YYYY-MM-DD) or month (YYYY-MM) as the query\'s breakdown, oldest first; the key is the period',
  })
  breakdown: SummaryGroupDto[];

  @ApiProperty({
    type: TradeMetricsDto, nullable: true,
    description: 'With `metrics=true`: each closed operation one trade (its netPnl), in closedAt order; else null. Over a ' +
      'period under 7 days the extrapolated figures (`cagr`, `sharpe`, `sortino`, `calmar`, `tradesPerDay`) are null',
  })
  metrics: TradeMetricsDto | null;
}
