import { ApiProperty } from '@nestjs/swagger';
import type { CalculatorEntity } from '../calculator.entity.js';
import { entryFigures } from '../pnl.engine.js';

/** SPEC 2.1. */
export class CalculatorDto {
  @ApiProperty({ example: '5b0f6a7e-8a53-4b8e-9f3e-0d5c3f3b2a11' })
  id: string;

  @ApiProperty({ example: 'trader@example.com' })
  email: string;

  @ApiProperty({ example: 'BTC-USDT' })
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

  @ApiProperty({ example: 150, description: 'entryShortValue − entrySpotValue' })
  entrySpread: number;

  @ApiProperty({ example: 0.157894736842, description: 'entrySpread ÷ entrySpotValue × 100' })
  entrySpreadPercentage: number;

  @ApiProperty({ example: 1763769600000, description: 'Creation time, Unix milliseconds; kept by later saves' })
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
