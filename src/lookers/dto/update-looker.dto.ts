import { CryptosField, LookerNameField, MAX_LOOKER_CRYPTOS } from './looker-rules.js';
import { ApiField, TICKER_INPUT_PATTERN } from '../../common/openapi/api-field.decorator.js';

/** PATCH body: `name` and/or `cryptos`, with the creation rules; an absent member is unchanged. */
export class UpdateLookerDto {
  @ApiField.strings({
    required: false,
    nullable: true,
    maxItems: MAX_LOOKER_CRYPTOS,
    items: { pattern: TICKER_INPUT_PATTERN },
    example: ['SOLUSDT'],
    description: 'Replaces the list: at most 6 sent, normalised to BASEQUOTE, duplicates removed; null or [] empties it',
  })
  @CryptosField()
  cryptos?: string[] | null;

  @ApiField.string({ required: false, example: 'Alts', nullable: true, maxLength: 100, description: 'null or blank removes the name' })
  @LookerNameField()
  name?: string | null;
}
