import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Required } from '../../common/validation/required.decorator.js';

/**
 * Query of GET /v1/opportunity-history/stats. The DTO reports missing members only (D2 puts
 * `<field> is required` first, in this order); every other rule is checked in the service by
 * parseRouteParams, against the configured exchanges.
 */
export class HistoryStatsQueryDto {
  @ApiProperty({ example: 'BTC-USDT', description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiProperty({ example: 'binance', description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiProperty({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiProperty({ type: Number, example: 7, description: 'Look-back in days, integer 1-90' })
  @Required()
  days: unknown;

  @ApiProperty({ type: Number, example: 0.3, description: 'Spread threshold in percent, 0-100' })
  @Required()
  threshold: unknown;

  @ApiPropertyOptional({ enum: ['net', 'gross'], default: 'net', description: 'Spread basis' })
  @Allow()
  basis?: unknown;
}
