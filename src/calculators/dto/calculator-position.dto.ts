import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';
import { ExchangeField } from './calculator-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/**
 * Which saved position to value, and on which exchange: the process body and the stream
 * query. Field order is the endpoint's documented error order: email, ticker, exchange.
 */
export class CalculatorPositionDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @TickerField('canonical')
  ticker: string;

  @ApiField.exchange({ description: 'Exchange of the position, any case' })
  @ExchangeField()
  exchange: string;
}
