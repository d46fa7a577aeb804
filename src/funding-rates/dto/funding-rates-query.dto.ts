import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/**
 * Query of GET /v1/funding-rates (SPEC 4.6). Members arrive as raw strings; parseFundingQuery
 * checks them in D2's order so exactly one D2 text is answered.
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

  @ApiField.integer({ required: false, minimum: 1, maximum: 500, default: 100, example: 100 })
  @Allow()
  limit?: unknown;

  @ApiField.integer({ required: false, minimum: 0, default: 0, example: 0 })
  @Allow()
  offset?: unknown;
}
