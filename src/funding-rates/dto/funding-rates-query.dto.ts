import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { EXCHANGE_NAMES } from '../../market-data/exchanges.js';

/**
 * Query of GET /v1/funding-rates (SPEC 4.6). Members arrive as raw strings; parseFundingQuery
 * checks them in D2's order so exactly one D2 text is answered.
 */
export class FundingRatesQueryDto {
  @ApiPropertyOptional({ enum: EXCHANGE_NAMES, description: 'One of the five exchanges, case-insensitive' })
  @Allow()
  exchange?: unknown;

  @ApiPropertyOptional({
    example: 'BTC', maxLength: 100,
    description: 'Case-insensitive substring of the pair: a base asset (`btc`) or a full pair (`BTC-USDT` or `BTCUSDT`)',
  })
  @Allow()
  symbol?: unknown;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 500, default: 100 })
  @Allow()
  limit?: unknown;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 0 })
  @Allow()
  offset?: unknown;
}
