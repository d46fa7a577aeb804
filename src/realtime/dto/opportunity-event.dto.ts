import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** SPEC 2.6: one event of GET /v1/realtime/arbitrage. */
export class OpportunityEventDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange({ description: 'Exchange with the lowest ask: buy here' })
  buyExchange: string;

  @ApiField.exchange({ example: 'okx', description: 'Exchange with the highest bid: sell here' })
  sellExchange: string;

  @ApiProperty({ example: 64000.1, description: 'Ask on the buy exchange' })
  buyPrice: number;

  @ApiProperty({ example: 64150.5, description: 'Bid on the sell exchange' })
  sellPrice: number;

  @ApiProperty({ example: 0.235, description: '(sellPrice − buyPrice) ÷ buyPrice × 100' })
  profitPercentAskBid: number;

  @ApiProperty({
    example: 1250000000,
    nullable: true,
    type: Number,
    description: 'Smaller of the two exchanges’ 24 h quote volumes (refreshed every 60 s); null while unknown',
  })
  volume: number | null;

  @ApiField.dateTime({ example: '2026-11-22T12:00:00.200Z', description: 'ISO 8601 time of detection' })
  timestamp: string;
}
