import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { EmailField } from '../../common/validation/field-rules.js';
import { EXCHANGE_NAMES, MARKETS, type Market } from '../../market-data/exchanges.js';
import { CryptosField, LookerNameField, MarketField, MAX_LOOKER_CRYPTOS } from './looker-rules.js';

/**
 * Field order is the order of the SPEC 4.2 error table (email, then the cryptos limit); the
 * additive D7 fields come last. `exchange` is checked by the service against the configured
 * exchanges, which a static decorator cannot know.
 */
export class CreateLookerDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField()
  email: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LOOKER_CRYPTOS,
    example: ['BTCUSDT', 'ETH-USDT'],
    description:
      'At most 6 tickers, BASEQUOTE or BASE-QUOTE, any case; stored as BASEQUOTE in the order sent, ' +
      'duplicates removed (the limit counts the entries sent). Omitted: [].',
  })
  @CryptosField()
  cryptos?: string[] | null;

  @ApiPropertyOptional({ example: 'Majors', nullable: true, maxLength: 100, description: 'Omitted or blank: null' })
  @LookerNameField()
  name?: string | null;

  @ApiPropertyOptional({
    enum: EXCHANGE_NAMES,
    example: 'binance',
    description: 'Exchange watched for every crypto (D7); one of the configured exchanges, default the first of them',
  })
  @Allow()
  exchange?: unknown;

  @ApiPropertyOptional({ enum: MARKETS, default: 'SPOT', description: 'Market watched for every crypto (D7)' })
  @MarketField()
  market?: Market | null;
}
