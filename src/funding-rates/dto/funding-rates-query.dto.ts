import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { FUNDING_SORT_KEYS } from '../funding.engine.js';

/**
 * Query of GET /v1/funding-rates (rules: funding). Members arrive as raw strings; parseFundingQuery
 * checks them in the `errors` rule's order so exactly one `errors` text is answered.
 */
export class FundingRatesQueryDto {
  @ApiField.exchange({ required: false, description: 'One of the five exchanges, case-insensitive' })
  @Allow()
  exchange?: unknown;

  @ApiField.string({
    required: false, example: 'BTC', maxLength: 100,
    description: 'Case-insensitive substring of the pair: a base asset (`btc`) or a full pair (`BTC-USDT` or `BTCUSDT`)',
  })
  @Allow()
  symbol?: unknown;

  @ApiField.string({
    required: false, example: 'BTC-USDT', maxLength: 100,
    description: 'The same filter as `symbol`, under the name the rest of the API uses; given both, both apply',
  })
  @Allow()
  ticker?: unknown;

  @ApiField.enum(FUNDING_SORT_KEYS, {
    required: false, default: 'apr',
    description: '`apr` (default): predicted aprPercent high to low. `absApr`: |aprPercent| high to low (carry either way). ' +
      '`apr1d`, `apr3d`, `apr7d`, `apr30d`, `settledRate`: high to low. `stability7d`: low to high (steadiest first). ' +
      'Entries without the figure last; ties by exchange, then contract.',
  })
  @Allow()
  sort?: unknown;

  @ApiField.integer({ required: false, minimum: 1, maximum: 500, default: 100, example: 100 })
  @Allow()
  limit?: unknown;

  @ApiField.integer({ required: false, minimum: 0, default: 0, example: 0 })
  @Allow()
  offset?: unknown;
}
