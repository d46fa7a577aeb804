import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';
import { EXCHANGE_NAMES } from '../../market-data/exchanges.js';
import { ExchangeField } from './calculator-rules.js';

/**
 * Which saved position to value, and on which exchange: the process body and the stream
 * query. Field order is the SPEC 4.1 error order: email, ticker, exchange.
 */
export class CalculatorPositionDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField()
  email: string;

  @ApiProperty({ example: 'BTC-USDT', description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @TickerField('canonical')
  ticker: string;

  @ApiProperty({ example: 'binance', enum: EXCHANGE_NAMES, description: 'Exchange of the position, any case' })
  @ExchangeField()
  exchange: string;
}
