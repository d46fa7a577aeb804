import { ApiProperty } from '@nestjs/swagger';
import { EXCHANGE_NAMES, type ExchangeName, MARKETS, type Market } from '../../market-data/exchanges.js';
import type { LookerEntity } from '../looker.entity.js';

/** SPEC 2.3, plus the additive D7 members `exchange` and `market`. */
export class LookerDto {
  @ApiProperty({ example: '5b0f6a7e-8a53-4b8e-9f3e-0d5c3f3b2a11' })
  id: string;

  @ApiProperty({ example: 'trader@example.com' })
  email: string;

  @ApiProperty({ example: 'Majors', type: String, nullable: true })
  name: string | null;

  @ApiProperty({ type: [String], example: ['BTCUSDT', 'ETHUSDT'], maxItems: 6 })
  cryptos: string[];

  @ApiProperty({ enum: EXCHANGE_NAMES, example: 'binance' })
  exchange: ExchangeName;

  @ApiProperty({ enum: MARKETS, example: 'SPOT' })
  market: Market;

  @ApiProperty({ example: 1763769600000, description: 'Creation time, Unix milliseconds' })
  timestamp: number;

  static from(entity: LookerEntity): LookerDto {
    return {
      id: entity.id,
      email: entity.email,
      name: entity.name,
      cryptos: entity.cryptos,
      exchange: entity.exchange,
      market: entity.market,
      timestamp: entity.createdAt.getTime(),
    };
  }
}
