import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { Required } from '../../common/validation/required.decorator.js';

/**
 * Query of GET /v1/opportunity-history/samples: a route, a recent span and a basis. The DTO
 * reports missing members only (`<field> is required` first, in this order); the route rules run
 * in the service, as for the stats.
 */
export class SpreadSamplesQueryDto {
  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiField.exchange({ description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiField.exchange({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiField.integer({ minimum: 1, maximum: 1440, example: 60, description: 'The last this many minutes, integer 1-1440' })
  @Required()
  minutes: unknown;

  @ApiField.enum(['net', 'gross'], { required: false, default: 'net', description: 'Spread basis (net charges the withdrawal fee against 1000 USD, as the stats do)' })
  @Allow()
  basis?: unknown;
}

export class SpreadSampleDto {
  @ApiProperty({ example: '2026-11-20T14:03:07.412Z', description: 'When the sample was recorded (UTC, milliseconds): an event of the stream, a closing tick or a heartbeat' })
  time: string;

  @ApiProperty({ example: 0.41, description: 'Spread on the basis, percent, 8 decimals' })
  spread: number;
}

/** A route's recorded samples over a recent span, as recorded (rules: recorders, windows). */
export class SpreadSamplesDto {
  @ApiProperty({ example: 'BTC-USDT' })
  ticker: string;

  @ApiProperty({ example: 'binance' })
  buy: string;

  @ApiProperty({ example: 'okx' })
  sell: string;

  @ApiProperty({ example: 60 })
  minutes: number;

  @ApiProperty({ enum: ['net', 'gross'], example: 'net' })
  basis: 'net' | 'gross';

  @ApiProperty({
    example: 10000,
    description: 'HISTORY_INTERVAL_MS: a sample holds its spread until the next one, at most this long (a longer silence: the route was gone)',
  })
  holdMs: number;

  @ApiProperty({ example: false, description: 'More than 10,000 samples in the span: only the newest 10,000 are answered' })
  truncated: boolean;

  @ApiProperty({ type: [SpreadSampleDto], description: 'Oldest first' })
  samples: SpreadSampleDto[];
}
