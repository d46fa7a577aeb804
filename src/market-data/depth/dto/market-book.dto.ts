import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ApiField } from '../../../common/openapi/api-field.decorator.js';

/** Query of GET /v1/market/books; members arrive raw and are checked by parseBookQuery, in this order. */
export class MarketBookQueryDto {
  @ApiField.exchange({ description: 'A configured exchange, case-insensitive' })
  @Allow()
  exchange?: unknown;

  @ApiField.enum(['SPOT', 'FUTURES'], { example: 'SPOT', description: 'Market type, case-insensitive; books are held for spot routes' })
  @Allow()
  market?: unknown;

  @ApiField.ticker('input')
  @Allow()
  ticker?: unknown;
}

const LEVELS_SCHEMA = {
  type: 'array',
  items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
  maxItems: 20,
} as const;

/** A held order book as the service last saw it. */
export class MarketBookDto {
  @ApiField.exchange()
  exchange: string;

  @ApiField.enum(['SPOT', 'FUTURES'], { example: 'SPOT' })
  market: 'SPOT' | 'FUTURES';

  @ApiField.ticker('canonical')
  ticker: string;

  @ApiProperty({ ...LEVELS_SCHEMA, example: [[64000.1, 0.52], [64000, 1.3]], description: 'Up to 20 levels, [price, quantity in base units], best (highest) first' })
  bids: [number, number][];

  @ApiProperty({ ...LEVELS_SCHEMA, example: [[64000.2, 0.4], [64000.5, 2.1]], description: 'Up to 20 levels, [price, quantity in base units], best (lowest) first' })
  asks: [number, number][];

  @ApiField.integer({ example: 85, minimum: 0, description: 'ms since the book last changed; beyond 5,000 events treat it as unknown (size null)' })
  ageMs: number;
}
