import { ApiProperty } from '@nestjs/swagger';
import { FUNDING_STRATEGIES, INTERVAL_SOURCES, type FundingStrategy, type IntervalSource } from '../funding.engine.js';

/** SPEC 2.8 funding-rate entry. */
export class FundingRateEntryDto {
  @ApiProperty({ example: 'bybit' }) exchange: string;
  @ApiProperty({ example: 'SOLUSDT', description: 'Original contract name on the exchange' }) contract: string;
  @ApiProperty({ example: 'SOL-USDT', description: 'Normalised pair BASE-QUOTE' }) symbol: string;
  @ApiProperty({ type: Number, nullable: true, example: 0.0001, description: 'Fraction per interval' })
  fundingRate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 14400 }) fundingIntervalSeconds: number | null;
  @ApiProperty({ enum: INTERVAL_SOURCES, example: 'exchange' }) intervalSource: IntervalSource;
  @ApiProperty({ type: Number, nullable: true, example: 21.9, description: 'Annualised, percent, signed' })
  aprPercent: number | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) nextFundingTime: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Spot mid on the same exchange, when known' })
  spotPrice: number | null;
  @ApiProperty({ type: Number, nullable: true }) markPrice: number | null;
  @ApiProperty({ enum: FUNDING_STRATEGIES, example: 'long_spot_short_perp' }) strategy: FundingStrategy;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ description: 'No update for 15 minutes' }) stale: boolean;
}

export class FundingRatesPageDto {
  @ApiProperty({ type: [FundingRateEntryDto] }) data: FundingRateEntryDto[];
  @ApiProperty({ description: 'Entries after filtering, before pagination' }) total: number;
  @ApiProperty({ format: 'date-time', description: 'When the ranking was built (the last collection)' })
  generatedAt: string;
}
