import { ApiProperty } from '@nestjs/swagger';
import type { EntryValues, PnlFigures } from '../pnl.engine.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** The `pnl` rule: the process response and the data of every calculator stream event. */
export class CalculatorPnlDto {
  @ApiField.email()
  email: string;

  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange()
  exchange: string;

  @ApiProperty({ example: 95000 })
  entrySpotValue: number;

  @ApiProperty({ example: 95150 })
  entryShortValue: number;

  @ApiProperty({ example: 0.5 })
  entrySpotQty: number;

  @ApiProperty({ example: 0.5 })
  entryFuturesQty: number;

  @ApiProperty({ example: 150, description: 'entryShortValue − entrySpotValue, in the quote currency (USDT)' })
  entrySpread: number;

  @ApiProperty({ example: 0.157894736842, description: 'entrySpread ÷ entrySpotValue × 100' })
  entrySpreadPercentage: number;

  @ApiProperty({ example: 96000, description: 'Spot BID of the latest sample' })
  currentSpotPrice: number;

  @ApiProperty({ example: 96050, description: 'Futures ASK of the latest sample' })
  currentFuturePrice: number;

  @ApiProperty({ example: 50, description: 'currentFuturePrice − currentSpotPrice, in the quote currency (USDT)' })
  currentSpread: number;

  @ApiProperty({ example: 0.0520833333333, description: 'currentSpread ÷ currentSpotPrice × 100' })
  currentSpreadPercentage: number;

  @ApiField.number({ example: 0.0001, nullable: true, description: 'Latest funding rate of the perpetual, a fraction per funding interval (0.0001 is 0.01 %); null when unknown' })
  fundingRate: number | null;

  @ApiProperty({ example: 50, description: 'Spot change + futures change, in the quote currency (USDT)' })
  pnl: number;

  @ApiProperty({ example: 0.0525900604786, description: 'pnl ÷ (entry spot total + entry futures total) × 100' })
  pnlPercentage: number;

  @ApiProperty({ example: true, description: 'true exactly when pnl > 0' })
  isProfitable: boolean;

  @ApiProperty({
    example: '2026-11-26T14:05:10.000Z',
    description: 'When the sample the current prices come from was recorded (ISO 8601, UTC); the one-off reading reuses a sample up to CALCULATOR_PROCESS_CACHE_MS, the stream up to CALCULATOR_STREAM_CACHE_MS',
  })
  marketDataAt: string;

  static from(position: { email: string; ticker: string }, exchange: string, entry: EntryValues, f: PnlFigures, marketDataAt: Date): CalculatorPnlDto {
    return {
      email: position.email,
      ticker: position.ticker,
      exchange,
      entrySpotValue: entry.entrySpotValue,
      entryShortValue: entry.entryShortValue,
      entrySpotQty: entry.entrySpotQty,
      entryFuturesQty: entry.entryFuturesQty,
      entrySpread: f.entrySpread,
      entrySpreadPercentage: f.entrySpreadPercentage,
      currentSpotPrice: f.currentSpotPrice,
      currentFuturePrice: f.currentFuturePrice,
      currentSpread: f.currentSpread,
      currentSpreadPercentage: f.currentSpreadPercentage,
      fundingRate: f.fundingRate,
      pnl: f.pnl,
      pnlPercentage: f.pnlPercentage,
      isProfitable: f.isProfitable,
      marketDataAt: marketDataAt.toISOString(),
    };
  }
}

/** Data of the calculator stream's `event: market-data-missing` (rules: market-data-missing). */
export class MarketDataMissingEventDto {
  @ApiField.enum(['market data not found'])
  message: string;
}
