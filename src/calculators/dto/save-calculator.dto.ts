import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';
import { PositiveNumberField } from './calculator-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** Field order is the order of the endpoint's documented error table (email, ticker), then the numbers. */
export class SaveCalculatorDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case; stored as BASE-QUOTE' })
  @TickerField('canonical')
  ticker: string;

  @ApiField.number({ example: 95000, minimum: 0, exclusiveMinimum: true, description: 'Entry price on the spot market (> 0)' })
  @PositiveNumberField('entrySpotValue')
  entrySpotValue: number;

  @ApiField.number({ example: 95150, minimum: 0, exclusiveMinimum: true, description: 'Entry price of the futures short (> 0)' })
  @PositiveNumberField('entryShortValue')
  entryShortValue: number;

  @ApiField.number({ example: 0.5, minimum: 0, exclusiveMinimum: true, description: 'Quantity bought on spot (> 0)' })
  @PositiveNumberField('entrySpotQty')
  entrySpotQty: number;

  @ApiField.number({ example: 0.5, minimum: 0, exclusiveMinimum: true, description: 'Quantity sold on futures (> 0)' })
  @PositiveNumberField('entryFuturesQty')
  entryFuturesQty: number;
}
