import { ApiProperty } from '@nestjs/swagger';
import { type ExchangeName, MARKETS, type Market } from '../../market-model/exchanges.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `lookers` rule; the prices, volume and time are null for a crypto never seen (rules: lookers). Swagger only. */
export class LookerPriceEventDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange()
  exchange: ExchangeName;

  @ApiField.enum(MARKETS)
  market: Market;

  @ApiProperty({ type: Number, nullable: true, example: 97012.5, description: 'Best sell price' })
  ask: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 97012.4, description: 'Best buy price' })
  bid: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1.2e9, description: '24 h quote volume; may lag up to 60 s' })
  volume: number | null;

  @ApiProperty({ example: false, description: 'Last tick older than 10 s, no quote yet, or no realtime feed' })
  stale: boolean;

  @ApiField.dateTime({ nullable: true, description: 'Last tick, ISO 8601' })
  updatedAt: string | null;
}
