import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';
import { TickerField } from '../../common/validation/ticker-field.js';

/** Field order is the order of the SPEC 4.3 error table: email, then ticker. */
export class CreateFavoriteCryptoDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField()
  email: string;

  @ApiProperty({ example: 'BTCUSDT', description: 'BASEQUOTE or BASE-QUOTE, any case; stored as BASEQUOTE' })
  @TickerField('compact')
  ticker: string;
}
