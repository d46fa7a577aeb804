import { type ExchangeName, MARKETS, type Market } from '../../market-model/exchanges.js';
import type { LookerEntity } from '../looker.entity.js';
import { ApiField, TICKER_COMPACT_PATTERN } from '../../common/openapi/api-field.decorator.js';

/** The `lookers` rule, plus the additive `lookers` members `exchange` and `market`. */
export class LookerDto {
  @ApiField.uuid()
  id: string;

  @ApiField.email()
  email: string;

  @ApiField.string({ example: 'Majors', nullable: true, maxLength: 100 })
  name: string | null;

  @ApiField.strings({ example: ['BTCUSDT', 'ETHUSDT'], maxItems: 6, items: { pattern: TICKER_COMPACT_PATTERN } })
  cryptos: string[];

  @ApiField.exchange()
  exchange: ExchangeName;

  @ApiField.enum(MARKETS)
  market: Market;

  @ApiField.unixMillis({ description: 'Creation time, Unix milliseconds' })
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
