import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { MAX_FILTER_TICKERS, SIZE_LIMITS } from '../opportunity-filter.js';

/**
 * Per-client filters of GET /v1/realtime/arbitrage; every one optional, all must hold.
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

  @ApiPropertyOptional({
    type: String,
    pattern: '^\\d{1,16}$',
    example: '1042',
    description: 'Resume after this event id, as the `Last-Event-ID` header does (the header wins when both are sent): ' +
      'a page reloaded in a browser cannot set the header on a new EventSource, but can put the last id it saw here',
  })
  @Allow()
  lastEventId?: unknown;

  @ApiPropertyOptional({
    type: Number,
    minimum: SIZE_LIMITS.min,
    maximum: SIZE_LIMITS.max,
    example: 5000,
    description: 'USDT to price each event\'s `size` at (default NET_REFERENCE_USDT)',
  })
  @Allow()
  size?: unknown;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: SIZE_LIMITS.max,
    example: 2000,
    description: 'Only events with size.maxSizeUsdt ≥ this (USDT); events with `size: null` do not pass',
  })
  @Allow()
  minSize?: unknown;
}
