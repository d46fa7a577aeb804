import { ApiProperty } from '@nestjs/swagger';
import { FUNDING_STRATEGIES, INTERVAL_SOURCES, type FundingStrategy, type IntervalSource } from '../funding.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** SPEC 2.8 funding-rate entry. */
export class FundingRateEntryDto {
  @ApiField.exchange({ example: 'bybit' }) exchange: string;
  @ApiProperty({ example: 'SOLUSDT', description: 'Original contract name on the exchange' }) contract: string;
  @ApiField.ticker('canonical', { example: 'SOL-USDT', description: 'Normalised pair BASE-QUOTE' }) symbol: string;
  @ApiField.number({ nullable: true, example: 0.0001, description: 'Fraction per interval' })
  fundingRate: number | null;
  @ApiField.integer({ nullable: true, minimum: 1, example: 14400 }) fundingIntervalSeconds: number | null;
  @ApiField.enum(INTERVAL_SOURCES) intervalSource: IntervalSource;
  @ApiField.number({ nullable: true, example: 21.9, description: 'Annualised, percent, signed' })
  aprPercent: number | null;
  @ApiField.dateTime({ nullable: true, example: '2026-03-01T16:00:00.000Z' }) nextFundingTime: string | null;
  @ApiField.number({ nullable: true, example: 150.12, description: 'Spot mid on the same exchange, when known' })
  spotPrice: number | null;
  @ApiField.number({ nullable: true, example: 150.2 }) markPrice: number | null;
  @ApiField.enum(FUNDING_STRATEGIES) strategy: FundingStrategy;
  @ApiField.dateTime() updatedAt: string;
  @ApiField.boolean({ example: false, description: 'No update for 15 minutes' }) stale: boolean;
}

export class FundingRatesPageDto {
  @ApiProperty({ type: [FundingRateEntryDto] }) data: FundingRateEntryDto[];
  @ApiField.integer({ minimum: 0, example: 1, description: 'Entries after filtering, before pagination' }) total: number;
  @ApiField.dateTime({ description: 'When the ranking was built (the last collection)' })
  generatedAt: string;
}
