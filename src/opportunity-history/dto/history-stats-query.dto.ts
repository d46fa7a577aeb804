import { Allow } from 'class-validator';
import { Required } from '../../common/validation/required.decorator.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/**
 * Query of GET /v1/opportunity-history/stats. The DTO reports missing members only (the `errors` rule puts
 * `<field> is required` first, in this order); every other rule is checked in the service by
 * parseRouteParams, against the configured exchanges.
 */
export class HistoryStatsQueryDto {
  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiField.exchange({ description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiField.exchange({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiField.integer({ minimum: 1, maximum: 90, example: 7, description: 'Look-back in days, integer 1-90' })
  @Required()
  days: unknown;

  @ApiField.number({ minimum: 0, maximum: 100, example: 0.3, description: 'Spread threshold in percent, 0-100' })
  @Required()
  threshold: unknown;

  @ApiField.enum(['net', 'gross'], { required: false, default: 'net', description: 'Spread basis' })
  @Allow()
  basis?: unknown;
}
