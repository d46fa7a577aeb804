import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { MAX_FILTER_TICKERS } from '../opportunity-filter.js';

/**
 * Per-client filters of GET /v1/realtime/arbitrage (issue 21); every one optional, all must hold.
 * Declared for the OpenAPI document; the rules run in parseOpportunityFilter, against the
 * configured exchanges, before the stream opens.
 */
export class ArbitrageStreamQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 100, example: 0.3, description: 'Only events with profitPercentAskBid ≥ this (percent)' })
  @Allow()
  minProfit?: unknown;

  @ApiPropertyOptional({ type: Number, minimum: -100, maximum: 100, example: 0.05, description: 'Only events with netProfitPercent ≥ this (percent)' })
  @Allow()
  minNetProfit?: unknown;

  @ApiPropertyOptional({ enum: ['true', 'false'], example: 'true', description: '`true`: only transferable events; `false` or absent: all' })
  @Allow()
  transferable?: unknown;

  @ApiPropertyOptional({
    type: String,
    example: 'binance,okx,bybit',
    description: 'Comma list of configured exchanges (any case, at most 5 entries): only events whose buy AND sell exchange are in it',
  })
  @Allow()
  exchanges?: unknown;

  @ApiPropertyOptional({
    type: String,
    example: 'BTC-USDT,ETHUSDT',
    description: `Comma list of tickers (BASE-QUOTE or BASEQUOTE, any case, at most ${MAX_FILTER_TICKERS} entries): only these`,
  })
  @Allow()
  tickers?: unknown;
}
