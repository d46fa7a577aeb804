import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** One row of an import (rules: history-import); documentation only, import-rows.ts validates. */
export class ImportHistoryRowDto {
  @ApiField.dateTime({ example: '2026-03-01T12:00:00Z', description: 'RFC 3339' })
  time: string;

  @ApiField.ticker('input')
  ticker: string;

  @ApiField.exchange()
  buyExchange: string;

  @ApiField.exchange({ example: 'okx' })
  sellExchange: string;

  @ApiProperty({ example: 65000.5, description: 'Ask on the buy exchange, > 0' })
  buyPrice: number;

  @ApiProperty({ example: 65390.5, description: 'Bid on the sell exchange, > 0' })
  sellPrice: number;

  @ApiProperty({ example: 0.6, description: 'Gross spread as recorded, percent: (sellPrice − buyPrice) ÷ buyPrice × 100' })
  grossSpreadPercent: number;

  @ApiProperty({ example: 0.1, description: 'Taker fee on the buy exchange, percent (0.1 is 0.1 %), ≥ 0' })
  buyFeePercent: number;

  @ApiProperty({ example: 0.1, description: 'Taker fee on the sell exchange, percent (0.1 is 0.1 %), ≥ 0' })
  sellFeePercent: number;

  @ApiProperty({ example: 0.00002, description: 'Base units, ≥ 0' })
  withdrawalFee: number;

  @ApiProperty({ example: 1.3, description: 'USD, ≥ 0' })
  withdrawalFeeUsd: number;

  @ApiProperty({ example: false })
  feesEstimated: boolean;

  @ApiProperty({ example: true })
  executable: boolean;

  @ApiField.number({ nullable: true, required: false, example: 125000000, description: '24 h quote volume' })
  volume24h?: number | null;
}

export class ImportHistoryResultDto {
  @ApiField.integer({ minimum: 0, example: 2, description: 'Rows in the request' })
  imported: number;
}
