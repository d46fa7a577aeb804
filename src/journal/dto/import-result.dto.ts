import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

export class ImportErrorDto {
  @ApiField.integer({ minimum: 2, example: 3, description: 'Line of the CSV where the row starts (the header is line 1)' })
  line: number;

  @ApiProperty({ example: 'entry_buy_price is required' })
  message: string;
}

export class ImportResultDto {
  @ApiField.integer({ minimum: 0, example: 10 })
  created: number;

  @ApiField.integer({ minimum: 0, example: 2, description: 'Rows whose (source, external_id) already existed' })
  updated: number;

  @ApiProperty({ type: [ImportErrorDto] })
  errors: ImportErrorDto[];
}
