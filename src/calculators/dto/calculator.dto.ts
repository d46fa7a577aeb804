import { ApiProperty } from '@nestjs/swagger';
import type { CalculatorEntity } from '../calculator.entity.js';
import { entryFigures } from '../pnl.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `calculator` rule. */
export class CalculatorDto {
  @ApiField.uuid()
  id: string;

  @ApiField.email()
  email: string;

  @ApiField.ticker('canonical')
  ticker: string;

  @ApiProperty({ example: 95000 })
  entrySpotValue: number;

  @ApiProperty({ example: 95150 })
  entryShortValue: number;

  @ApiProperty({ example: 0.5 })
  entrySpotQty: number;

  @ApiProperty({ example: 0.5 })
  entryFuturesQty: number;

  @ApiProperty({ example: 47500, description: 'entrySpotValue × entrySpotQty' })
  entrySpotTotalValue: number;

  @ApiProperty({ example: 47575, description: 'entryShortValue × entryFuturesQty' })
  entryFuturesTotalValue: number;

  @ApiProperty({ example: 150, description: 'entryShortValue − entrySpotValue, in the quote currency (USDT)' })
  entrySpread: number;

  @ApiProperty({ example: 0.157894736842, description: 'entrySpread ÷ entrySpotValue × 100' })
  entrySpreadPercentage: number;

  @ApiField.unixMillis({ description: 'Creation time, Unix milliseconds; kept by later saves' })
  timestamp: number;

  static from(e: CalculatorEntity): CalculatorDto {
    return {
      id: e.id,
      email: e.email,
      ticker: e.ticker,
      entrySpotValue: e.entrySpotValue,
      entryShortValue: e.entryShortValue,
      entrySpotQty: e.entrySpotQty,
      entryFuturesQty: e.entryFuturesQty,
      ...entryFigures(e),
      timestamp: e.createdAt.getTime(),
    };
  }
}
