import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { APR_WINDOWS_DAYS } from '../funding-history.engine.js';
import { MIN_APR_SPREAD_MAX } from '../funding-extra-query.js';

/** Query of GET /v1/funding-rates/spreads; parseSpreadsQuery checks the raw strings. */
export class FundingSpreadsQueryDto {
  @ApiField.number({ required: false, minimum: 0, maximum: MIN_APR_SPREAD_MAX, default: 0, example: 10, description: 'Only pairs with aprSpread at or above this, percent' })
  @Allow()
  minAprSpread?: unknown;

  @ApiField.integer({ required: false, default: 7, example: 7, description: `Settled window of avgAprSpread: one of ${APR_WINDOWS_DAYS.join(', ')} days` })
  @Allow()
  days?: unknown;

  @ApiField.integer({ required: false, minimum: 1, maximum: 500, default: 100, example: 100 })
  @Allow()
  limit?: unknown;

  @ApiField.integer({ required: false, minimum: 0, default: 0, example: 0 })
  @Allow()
  offset?: unknown;
}

export class FundingSpreadLegDto {
  @ApiField.exchange() exchange: string;
  @ApiField.number({ example: 0.0001, description: 'Predicted rate, fraction per interval' }) fundingRate: number;
  @ApiField.number({ example: 8, description: 'Funding interval, hours' }) intervalHours: number;
  @ApiField.number({ example: 0.0000125, description: 'fundingRate ÷ intervalHours, fraction per hour' }) ratePerHour: number;
  @ApiField.number({ example: 10.95, description: 'Annualised predicted funding, percent, signed' }) apr: number;
}

/** The best funding pair of one coin: long the lower annualised funding, short the higher. */
export class FundingSpreadDto {
  @ApiField.ticker('canonical') ticker: string;
  @ApiProperty({ type: FundingSpreadLegDto, description: 'The perpetual to hold long (lowest APR)' }) long: FundingSpreadLegDto;
  @ApiProperty({ type: FundingSpreadLegDto, description: 'The perpetual to hold short (highest APR)' }) short: FundingSpreadLegDto;
  @ApiField.number({ minimum: 0, example: 32.85, description: 'short.apr − long.apr, percent' }) aprSpread: number;
  @ApiField.number({ nullable: true, example: 30.1, description: 'Settled 7-day APR of the short minus that of the long, percent; null when either is unknown' })
  avgAprSpread7d: number | null;
  @ApiField.number({ nullable: true, example: 30.1, description: 'The same over the `days` asked for, percent' })
  avgAprSpread: number | null;
  @ApiField.number({ nullable: true, example: 0.02, description: '(short mid − long mid) ÷ long mid × 100, perpetual mids; null without fresh quotes' })
  basisPercent: number | null;
}

export class FundingSpreadsPageDto {
  @ApiProperty({ type: [FundingSpreadDto] }) data: FundingSpreadDto[];
  @ApiField.integer({ minimum: 0, example: 1, description: 'Pairs at or above minAprSpread, before pagination' }) total: number;
  @ApiField.dateTime({ description: 'When the ranking behind the spreads was built (the last collection)' }) generatedAt: string;
}
