import { ApiProperty } from '@nestjs/swagger';
import { FUNDING_STRATEGIES, INTERVAL_SOURCES, type FundingStrategy, type IntervalSource } from '../funding.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `funding` rule funding-rate entry. */
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
  @ApiField.number({ nullable: true, example: 10.95, description: SETTLED_APR('1 day') }) apr1d: number | null;
  @ApiField.number({ nullable: true, example: 10.95, description: SETTLED_APR('3 days') }) apr3d: number | null;
  @ApiField.number({ nullable: true, example: 10.95, description: SETTLED_APR('7 days') }) apr7d: number | null;
  @ApiField.number({ nullable: true, example: 10.95, description: SETTLED_APR('30 days') }) apr30d: number | null;
  @ApiField.number({
    nullable: true, minimum: 0, example: 0.12,
    description: 'Coefficient of variation (a ratio, not percent) of the last 7 days\' payments, each annualised on its own interval: lower is steadier; null with fewer than 3 payments or a mean of 0',
  })
  stability7d: number | null;
  @ApiField.number({ nullable: true, example: 0.0001, description: 'The last settled rate (fraction per interval), beside the predicted fundingRate' })
  settledRate: number | null;
  @ApiField.dateTime({ nullable: true, description: 'When the funding interval last changed; null if no change was ever seen' })
  intervalChangedAt: string | null;
}

function SETTLED_APR(window: string): string {
  return `Settled funding over the last ${window}, annualised, percent, signed: the payments' mean rate × payments per year, each payment weighted by its own interval (so an 8 h → 4 h change counts each payment for the time it paid for); null without a payment in the window`;
}

export class FundingRatesPageDto {
  @ApiProperty({ type: [FundingRateEntryDto] }) data: FundingRateEntryDto[];
  @ApiField.integer({ minimum: 0, example: 1, description: 'Entries after filtering, before pagination' }) total: number;
  @ApiField.dateTime({ description: 'When the ranking was built (the last collection)' })
  generatedAt: string;
}
