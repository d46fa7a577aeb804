import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { HISTORY_DAYS_DEFAULT, HISTORY_DAYS_MAX } from '../funding-extra-query.js';

/** Query of GET /v1/funding-rates/history; parseHistoryQuery checks the raw strings. */
export class FundingHistoryQueryDto {
  @ApiField.ticker('input', { description: 'The coin, `BTC-USDT` or `BTCUSDT`, any case' })
  @Allow()
  ticker?: unknown;

  @ApiField.exchange({ required: false, description: 'One exchange; omitted, every exchange' })
  @Allow()
  exchange?: unknown;

  @ApiField.integer({ required: false, minimum: 1, maximum: HISTORY_DAYS_MAX, default: HISTORY_DAYS_DEFAULT, example: 7, description: 'Look-back in days' })
  @Allow()
  days?: unknown;
}

/** One settled funding payment. */
export class FundingSettlementDto {
  @ApiField.exchange({ example: 'okx' }) exchange: string;
  @ApiField.ticker('canonical') ticker: string;
  @ApiField.dateTime({ description: 'When the payment was made' }) settledAt: string;
  @ApiField.number({ example: 0.0001, description: 'Fraction per interval, signed (positive: longs pay shorts)' }) rate: number;
  @ApiField.number({ minimum: 0, exclusiveMinimum: true, example: 8, description: 'The interval the payment paid for, hours' })
  intervalHours: number;
  @ApiField.number({ nullable: true, example: 97_010.5, description: 'Mark price of the payment, when the venue states it (binance)' })
  markPrice: number | null;
}
