import { ApiProperty } from '@nestjs/swagger';
import type { FavoriteCryptoEntity } from '../favorite-crypto.entity.js';

export class FavoriteCryptoDto {
  @ApiProperty({ example: '5b0f6a7e-8a53-4b8e-9f3e-0d5c3f3b2a11' })
  id: string;

  @ApiProperty({ example: 'trader@example.com' })
  email: string;

  @ApiProperty({ example: 'BTCUSDT' })
  ticker: string;

  @ApiProperty({ example: 1763769600000, description: 'Creation time, Unix milliseconds' })
  timestamp: number;

  static from(entity: FavoriteCryptoEntity): FavoriteCryptoDto {
    return { id: entity.id, email: entity.email, ticker: entity.ticker, timestamp: entity.createdAt.getTime() };
  }
}
