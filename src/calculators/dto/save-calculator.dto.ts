import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';
import { PositiveNumberField } from './calculator-rules.js';

/** Field order is the order of the SPEC 4.1 error table (email, ticker), then the numbers. */
export class SaveCalculatorDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField()
  email: string;

  @ApiProperty({ example: 'BTC-USDT', description: 'BASE-QUOTE or BASEQUOTE, any case; stored as BASE-QUOTE' })
  @TickerField('canonical')
  ticker: string;

  @ApiProperty({ example: 95000, description: 'Entry price on the spot market (> 0)' })
  @PositiveNumberField('entrySpotValue')
  entrySpotValue: number;

  @ApiProperty({ example: 95150, description: 'Entry price of the futures short (> 0)' })
  @PositiveNumberField('entryShortValue')
  entryShortValue: number;

  @ApiProperty({ example: 0.5, description: 'Quantity bought on spot (> 0)' })
  @PositiveNumberField('entrySpotQty')
  entrySpotQty: number;

  @ApiProperty({ example: 0.5, description: 'Quantity sold on futures (> 0)' })
  @PositiveNumberField('entryFuturesQty')
  entryFuturesQty: number;
}
