import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { RouteLifetimesQueryDto } from './route-lifetimes.dto.js';

/**
 * Query of GET /v1/opportunity-history/series: the lifetimes' route and look-back, and a basis. The
 * DTO reports missing members only (`<field> is required` first, in this order); the route rules
 * run in the service, as for the stats.
 */
export class SpreadSeriesQueryDto extends RouteLifetimesQueryDto {
  @ApiField.enum(['net', 'gross'], { required: false, default: 'net', description: 'Spread basis (net charges the withdrawal fee against 1000 USD, as the stats do)' })
  @Allow()
  basis?: unknown;
}

export class SpreadSeriesPointDto {
  @ApiProperty({ example: '2026-11-20T00:00:00.000Z', description: 'Start of the bucket (UTC), a multiple of bucketSeconds since the Unix epoch' })
  time: string;

  @ApiProperty({ example: 12, description: 'Recorded samples in the bucket (at least 1: empty buckets are left out)' })
  samples: number;

  @ApiProperty({ example: 0.12, description: 'Lowest spread of the bucket, percent' })
  minSpread: number;

  @ApiProperty({ example: 0.21, description: 'Average spread of the bucket, percent' })
  avgSpread: number;

  @ApiProperty({ example: 0.35, description: 'Highest spread of the bucket, percent' })
  maxSpread: number;
}

/** A route's recorded spread over the look-back, downsampled by time for a chart. */
export class SpreadSeriesDto {
  @ApiProperty({ example: 'BTC-USDT' })
  ticker: string;

  @ApiProperty({ example: 'binance' })
  buy: string;

  @ApiProperty({ example: 'okx' })
  sell: string;

  @ApiProperty({ example: 7 })
  days: number;

  @ApiProperty({ enum: ['net', 'gross'], example: 'net' })
  basis: 'net' | 'gross';

  @ApiProperty({
    example: 1210,
    description: 'Width of each bucket in seconds: the look-back ÷ 500, rounded up to a whole second, at least the recording interval',
  })
  bucketSeconds: number;

  @ApiProperty({ type: [SpreadSeriesPointDto], description: 'At most 500 buckets in time order, only those holding samples' })
  points: SpreadSeriesPointDto[];
}
