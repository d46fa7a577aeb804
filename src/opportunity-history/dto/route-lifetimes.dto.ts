import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { Required } from '../../common/validation/required.decorator.js';

/**
 * Query of GET /v1/opportunity-history/lifetimes (and the route and look-back of the series). The DTO reports missing members only (the `errors` rule puts
 * `<field> is required` first); the `windows` rule rules for ticker, buy, sell and days run in the service.
 */
export class RouteLifetimesQueryDto {
  @ApiField.ticker('input', { description: 'BASE-QUOTE or BASEQUOTE, any case' })
  @Required()
  ticker: unknown;

  @ApiField.exchange({ description: 'Buy exchange, one of the configured exchanges' })
  @Required()
  buy: unknown;

  @ApiField.exchange({ example: 'okx', description: 'Sell exchange, one of the configured exchanges, not the buy one' })
  @Required()
  sell: unknown;

  @ApiField.integer({ minimum: 1, maximum: 90, example: 7, description: 'Look-back in days, integer 1-90: for lifetimes the episodes that opened in it, for the series the samples recorded in it' })
  @Required()
  days: unknown;
}

/** How long a route's spread stays above ARBITRAGE_MIN_PROFIT_PERCENT once it gets there. */
export class RouteLifetimesDto {
  @ApiProperty({ example: 'BTC-USDT' })
  ticker: string;

  @ApiProperty({ example: 'binance' })
  buy: string;

  @ApiProperty({ example: 'okx' })
  sell: string;

  @ApiProperty({ example: 7 })
  days: number;

  @ApiProperty({ example: 42, description: 'Episodes (spread rose above the threshold, then fell back) that opened in the look-back' })
  episodes: number;

  @ApiProperty({ type: Number, nullable: true, example: 8200, description: 'Nearest-rank median lifetime, ms; null without episodes' })
  medianLifetimeMs: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 61000, description: 'Nearest-rank 90th percentile lifetime, ms; null without episodes' })
  p90LifetimeMs: number | null;

  @ApiProperty({
    type: Number, nullable: true, example: 0.75,
    description: 'Share (0-1) of the episodes that were transferable (a common network open when they closed); null without episodes',
  })
  transferableShare: number | null;

  @ApiProperty({
    type: Number, nullable: true, example: 75,
    description: 'The same share in percent (0-100), the unit of every other percent member (winRate, spreads); null without episodes',
  })
  transferablePercent: number | null;

  @ApiProperty({
    type: Number, nullable: true, example: 12500,
    description: 'Nearest-rank median, over the episodes that have one, of maxSizeUsdt (net ≥ 0, USDT) of each episode\'s most ' +
      'profitable event, priced from both order books; null when no episode was sized',
  })
  medianMaxSizeUsdt: number | null;
}
