import { Allow } from 'class-validator';
import { EmailField } from '../../common/validation/field-rules.js';
import { MARKETS, type Market } from '../../market-model/exchanges.js';
import { CryptosField, LookerNameField, MarketField, MAX_LOOKER_CRYPTOS } from './looker-rules.js';
import { ApiField, TICKER_INPUT_PATTERN } from '../../common/openapi/api-field.decorator.js';

/**
 * Field order is the order of the endpoint's documented error table (email, then the cryptos limit); the
 * additive `lookers` fields come last. `exchange` is checked by the service against the configured
 * exchanges, which a static decorator cannot know.
 */
export class CreateLookerDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.strings({
    required: false,
    nullable: true,
    maxItems: MAX_LOOKER_CRYPTOS,
    items: { pattern: TICKER_INPUT_PATTERN },
    example: ['BTCUSDT', 'ETH-USDT'],
    description:
      'At most 6 tickers, BASEQUOTE or BASE-QUOTE, any case; stored as BASEQUOTE in the order sent, ' +
      'duplicates removed (the limit counts the entries sent). Omitted: [].',
  })
  @CryptosField()
  cryptos?: string[] | null;

  @ApiField.string({ required: false, example: 'Majors', nullable: true, maxLength: 100, description: 'Omitted or blank: null' })
  @LookerNameField()
  name?: string | null;

  @ApiField.exchange({
    required: false,
    description: 'Exchange watched for every crypto; one of the configured exchanges, default the first of them',
  })
  @Allow()
  exchange?: unknown;

  @ApiField.enum(MARKETS, { required: false, nullable: true, default: 'SPOT', description: 'Market watched for every crypto' })
  @MarketField()
  market?: Market | null;
}
