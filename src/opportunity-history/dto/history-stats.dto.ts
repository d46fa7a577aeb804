import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `windows` rule statistics of one route over the look-back; spreads in percent on the basis. */
export class HistoryStatsDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange()
  buy: string;

  @ApiField.exchange({ example: 'okx' })
  sell: string;

  @ApiField.integer({ minimum: 1, maximum: 90, example: 7 })
  days: number;

  @ApiProperty({ example: 0.3 })
  threshold: number;

  @ApiField.enum(['net', 'gross'])
  basis: string;

  @ApiField.integer({ minimum: 0, example: 60480, description: 'Samples in the look-back' })
  samples: number;

  @ApiField.integer({ minimum: 0, example: 42, description: 'Maximal runs at or above the threshold; a gap over 3 intervals ends one' })
  windows: number;

  @ApiProperty({
    example: 128.5,
    description: 'Minutes the samples at or above the threshold hold: each until the route\'s next sample, at most HISTORY_INTERVAL_MS ' +
      '(samples one interval apart: their count × HISTORY_INTERVAL_MS ÷ 60,000)',
  })
  minutesAbove: number;

  @ApiProperty({ type: Number, nullable: true, example: 1.42, description: 'Largest spread of the samples on the basis asked (gross or net), percent' })
  maxSpread: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.08, description: 'Mean spread of the samples on the basis asked, percent' })
  avgSpread: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.05, description: 'Nearest-rank median spread, percent' })
  p50Spread: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.31, description: 'Nearest-rank 90th percentile' })
  p90Spread: number | null;

  @ApiField.dateTime({ nullable: true, example: '2026-03-01T00:00:00.000Z', description: 'RFC 3339 UTC' })
  firstSampleAt: string | null;

  @ApiField.dateTime({ nullable: true, example: '2026-03-07T23:59:50.000Z', description: 'RFC 3339 UTC' })
  lastSampleAt: string | null;
}
