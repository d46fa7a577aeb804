import { Allow } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** POST body (rules: crossing-counts); only documents it: the body is parsed by crossing-params.ts (rules: errors, crossing-counts). */
export class StartCrossingCountDto {
  @ApiField.date({
    required: false,
    nullable: true,
    description: 'Day to process, YYYY-MM-DD (São Paulo calendar day); omitted or null: today in São Paulo',
  })
  date?: string | null;
}

export class CrossingCountAcceptedDto {
  @ApiField.date({ description: 'The day that will be processed, YYYY-MM-DD' })
  processingDate: string;

  @ApiField.enum(['accepted'])
  status: 'accepted';
}

/**
 * Query of the read endpoint (rules: funding). Members are kept as sent (`@Allow`) and checked by
 * parseCrossingQuery, so the messages and their order live in one place.
 */
export class CrossingCountQueryDto {
  @ApiField.date({ required: false, description: 'First day, inclusive, YYYY-MM-DD; default today (São Paulo)' })
  @Allow()
  from?: unknown;

  @ApiField.date({ required: false, example: '2026-03-07', description: 'Last day, inclusive, YYYY-MM-DD; default today (São Paulo)' })
  @Allow()
  to?: unknown;

  @ApiField.ticker('input', { required: false, description: 'Only this pair; BASE-QUOTE or BASEQUOTE, any case' })
  @Allow()
  ticker?: unknown;

  @ApiField.exchange({ required: false, description: 'Only this exchange, any case' })
  @Allow()
  exchange?: unknown;
}

export class CrossingCountSummaryDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange()
  exchange: string;

  @ApiField.integer({ minimum: 0, example: 42, description: 'Crossings summed over the processed days of the range' })
  crossingCount: number;

  @ApiField.integer({ minimum: 1, example: 7, description: 'Processed days in the range with a record for this pair' })
  days: number;
}
