import { EmailField } from '../../common/validation/field-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class OwnerQueryDto {
  @ApiField.email()
  @EmailField()
  email: string;
}
