import { ApiPropertyOptional } from '@nestjs/swagger';
import { CryptosField, LookerNameField, MAX_LOOKER_CRYPTOS } from './looker-rules.js';

/** PATCH body: `name` and/or `cryptos`, with the creation rules; an absent member is unchanged. */
export class UpdateLookerDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_LOOKER_CRYPTOS,
    example: ['SOLUSDT'],
    description: 'Replaces the list: at most 6 sent, normalised to BASEQUOTE, duplicates removed; null or [] empties it',
  })
  @CryptosField()
  cryptos?: string[] | null;

  @ApiPropertyOptional({ example: 'Alts', nullable: true, maxLength: 100, description: 'null or blank removes the name' })
  @LookerNameField()
  name?: string | null;
}
