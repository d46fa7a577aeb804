import { EmailField } from '../../common/validation/field-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** `?email=` of the looker routes; the `lookers` rule words the missing case `email parameter is required`. */
export class LookerOwnerQueryDto {
  @ApiField.email()
  @EmailField('email parameter is required')
  email: string;
}
