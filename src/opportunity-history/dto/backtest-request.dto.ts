import { Allow } from 'class-validator';
import { Required } from '../../common/validation/required.decorator.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/**
 * Body of POST /v1/opportunity-history/backtest (rules: backtest). As for stats, the DTO reports
 * missing members only; parseBacktestRequest checks the rest in the `errors` rule's order.
 */
export class BacktestRequestDto {
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

  @ApiField.number({ minimum: 0, maximum: 100, example: 0.3, description: 'Spread threshold in percent, 0-100' })
  @Required()
  threshold: unknown;

  @ApiField.enum(['net', 'gross'], { required: false, default: 'net', description: 'Decides when an operation is entered' })
  @Allow()
  basis?: unknown;

  @ApiField.number({ required: false, minimum: 10, maximum: 10000000, default: 1000, example: 1000, description: 'USD, 10 to 10,000,000' })
  @Allow()
  capital?: unknown;

  @ApiField.integer({ required: false, minimum: 0, maximum: 1440, default: 0, example: 30, description: 'Minutes the capital is in transit, 0-1440' })
  @Allow()
  transferMinutes?: unknown;

  @ApiField.enum(['day', 'week', 'month'], { required: false, default: 'day', description: 'Unit of the answer\'s breakdown, São Paulo calendar (weeks start on Monday)' })
  @Allow()
  breakdown?: unknown;
}
