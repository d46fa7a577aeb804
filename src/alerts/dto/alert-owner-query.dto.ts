import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { EmailField } from '../../common/validation/field-rules.js';

/** `?email=` of the alert routes: the owner of the rules. */
export class AlertOwnerQueryDto {
  @ApiField.email()
  @EmailField('email parameter is required')
  email: string;
}
