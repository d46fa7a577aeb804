import type { FavoriteCryptoEntity } from '../favorite-crypto.entity.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class FavoriteCryptoDto {
  @ApiField.uuid()
  id: string;

  @ApiField.email()
  email: string;

  @ApiField.ticker('compact')
  ticker: string;

  @ApiField.unixMillis({ description: 'Creation time, Unix milliseconds' })
  timestamp: number;

  static from(entity: FavoriteCryptoEntity): FavoriteCryptoDto {
    return { id: entity.id, email: entity.email, ticker: entity.ticker, timestamp: entity.createdAt.getTime() };
  }
}
