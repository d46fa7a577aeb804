import { ApiProperty } from '@nestjs/swagger';

export class ImportErrorDto {
  @ApiProperty({ example: 3, description: 'Line of the CSV where the row starts (the header is line 1)' })
  line: number;

  @ApiProperty({ example: 'entry_buy_price is required' })
  message: string;
}

export class ImportResultDto {
  @ApiProperty({ example: 10 })
  created: number;

  @ApiProperty({ example: 2, description: 'Rows whose (source, external_id) already existed' })
  updated: number;

  @ApiProperty({ type: [ImportErrorDto] })
  errors: ImportErrorDto[];
}
