import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** POST body (SPEC 4.7); only documents it: the body is parsed by crossing-params.ts (D2, D11). */
export class StartCrossingCountDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-03-01',
    description: 'Day to process, YYYY-MM-DD (São Paulo calendar day); omitted or null: today in São Paulo',
  })
  date?: string | null;
}

export class CrossingCountAcceptedDto {
  @ApiProperty({ example: '2026-03-01', description: 'The day that will be processed, YYYY-MM-DD' })
  processingDate: string;

  @ApiProperty({ enum: ['accepted'], example: 'accepted' })
  status: 'accepted';
}

/**
 * Query of the read endpoint (D11). Members are kept as sent (`@Allow`) and checked by
 * parseCrossingQuery, so the messages and their order live in one place.
 */
export class CrossingCountQueryDto {
  @ApiPropertyOptional({ example: '2026-03-01', description: 'First day, inclusive, YYYY-MM-DD; default today (São Paulo)' })
  @Allow()
  from?: unknown;

  @ApiPropertyOptional({ example: '2026-03-07', description: 'Last day, inclusive, YYYY-MM-DD; default today (São Paulo)' })
  @Allow()
  to?: unknown;

  @ApiPropertyOptional({ example: 'BTC-USDT', description: 'Only this pair; BASE-QUOTE or BASEQUOTE, any case' })
  @Allow()
  ticker?: unknown;

  @ApiPropertyOptional({ example: 'binance', description: 'Only this exchange: binance, bybit, okx, gate or bitget' })
  @Allow()
  exchange?: unknown;
}

export class CrossingCountSummaryDto {
  @ApiProperty({ example: 'BTC-USDT' })
  ticker: string;

  @ApiProperty({ example: 'binance' })
  exchange: string;

  @ApiProperty({ type: 'integer', example: 42, description: 'Crossings summed over the processed days of the range' })
  crossingCount: number;

  @ApiProperty({ type: 'integer', example: 7, description: 'Processed days in the range with a record for this pair' })
  days: number;
}
