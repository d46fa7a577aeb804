import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** Field order is the order of the endpoint's documented error table: email, then ticker. */
export class CreateFavoriteCryptoDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.ticker('input', { example: 'BTCUSDT', description: 'BASEQUOTE or BASE-QUOTE, any case; stored as BASEQUOTE' })
  @TickerField('compact')
  ticker: string;
}
