import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `opportunities` rule plus `market` (rules: opportunities): one element of a GET /v1/realtime/prices event. */
export class PriceSnapshotEntryDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange({ example: 'bybit' })
  exchange: string;

  @ApiField.enum(['SPOT', 'FUTURES'])
  market: 'SPOT' | 'FUTURES';

  @ApiProperty({ example: 64000.2 })
  ask: number;

  @ApiProperty({ example: 64000.1 })
  bid: number;

  @ApiProperty({ example: 1.25 })
  askQty: number;

  @ApiProperty({ example: 0.8 })
  bidQty: number;

  @ApiProperty({ example: 1250000000, nullable: true, type: Number, description: '24 h quote volume; null while unknown' })
  volume: number | null;

  @ApiField.dateTime({ example: '2026-11-22T12:00:00.000Z', description: 'ISO 8601 time of the last realtime tick' })
  updatedAt: string;
}
