import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Required } from '../../common/validation/required.decorator.js';

/**
 * Body of POST /v1/opportunity-history/backtest (SPEC 4.8). As for stats, the DTO reports
 * missing members only; parseBacktestRequest checks the rest in D2's order.
 */
export class BacktestRequestDto {
  @ApiProperty({ example: 'BTC-USDT', description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiProperty({ example: 'binance', description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiProperty({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiProperty({ type: 'integer', example: 30, description: 'Look-back in days, 1-90' })
  @Required()
  days: unknown;

  @ApiProperty({ type: Number, example: 0.3, description: 'Spread threshold in percent, 0-100' })
  @Required()
  threshold: unknown;

  @ApiPropertyOptional({ enum: ['net', 'gross'], default: 'net', description: 'Decides when an operation is entered' })
  @Allow()
  basis?: unknown;

  @ApiPropertyOptional({ type: Number, default: 1000, example: 1000, description: 'USD, 10 to 10,000,000' })
  @Allow()
  capital?: unknown;

  @ApiPropertyOptional({ type: 'integer', default: 0, example: 30, description: 'Minutes the capital is in transit, 0-1440' })
  @Allow()
  transferMinutes?: unknown;
}
