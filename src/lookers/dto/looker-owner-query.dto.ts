import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';

/** `?email=` of the looker routes; SPEC 4.2 words the missing case `email parameter is required`. */
export class LookerOwnerQueryDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField('email parameter is required')
  email: string;
}
