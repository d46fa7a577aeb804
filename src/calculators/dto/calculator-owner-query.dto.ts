import { EmailField } from '../../common/validation/field-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class CalculatorOwnerQueryDto {
  @ApiField.email()
  @EmailField()
  email: string;
}
