import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';

export class CalculatorOwnerQueryDto {
  @ApiProperty({ example: 'trader@example.com' })
  @EmailField()
  email: string;
}
