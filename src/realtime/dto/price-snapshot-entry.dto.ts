import { ApiProperty } from '@nestjs/swagger';

/** SPEC 2.7 plus `market` (D6): one element of a GET /v1/realtime/prices event. */
export class PriceSnapshotEntryDto {
  @ApiProperty({ example: 'BTC-USDT' })
  ticker: string;

  @ApiProperty({ example: 'bybit' })
  exchange: string;

  @ApiProperty({ example: 'SPOT', enum: ['SPOT', 'FUTURES'] })
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

  @ApiProperty({ example: '2026-11-22T12:00:00.000Z', description: 'ISO 8601 time of the last realtime tick' })
  updatedAt: string;
}
