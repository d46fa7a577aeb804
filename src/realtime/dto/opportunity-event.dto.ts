import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { OpportunitySizeDto } from './opportunity-size.dto.js';
import { QuoteConversionDto } from './quote-conversion.dto.js';

/** The `opportunities` rule: one event of GET /v1/realtime/arbitrage. */
export class OpportunityEventDto {
  @ApiField.ticker('canonical')
  ticker: string;

  @ApiField.exchange({ description: 'Exchange with the lowest ask: buy here' })
  buyExchange: string;

  @ApiField.exchange({ example: 'okx', description: 'Exchange with the highest bid: sell here' })
  sellExchange: string;

  @ApiProperty({ example: 64000.1, description: 'Ask on the buy exchange' })
  buyPrice: number;

  @ApiProperty({ example: 64150.5, description: 'Bid on the sell exchange' })
  sellPrice: number;

  @ApiProperty({ example: 0.235, description: '(sellPrice − buyPrice) ÷ buyPrice × 100' })
  profitPercentAskBid: number;

  @ApiProperty({
    example: 1250000000,
    nullable: true,
    type: Number,
    description: 'Smaller of the two exchanges’ 24 h quote volumes (refreshed every 60 s); null while unknown',
  })
  volume: number | null;

  @ApiField.dateTime({ example: '2026-11-22T12:00:00.200Z', description: 'ISO 8601 time of detection' })
  timestamp: string;

  // the net spread stream, additive: what the spread is worth after costs, whether it can be acted on, and its age.

  @ApiProperty({
    example: 0.0302,
    description:
      'Net spread in percent, 8 decimals: profitPercentAskBid − buy taker fee % − sell taker fee % − withdrawal fee ' +
      '(of `network`, in USDT at buyPrice) ÷ NET_REFERENCE_USDT (default 1000) × 100. May be negative. Unknown fees ' +
      'take the defaults (taker 0.1 %, withdrawal 1 USD) and set costsEstimated',
  })
  netProfitPercent: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ERC20',
    description:
      'The cheapest network open for withdrawal on the buy exchange and deposit on the sell exchange; null when none ' +
      'is known to be open (closed, no common network, or networks unknown)',
  })
  network: string | null;

  @ApiProperty({ example: true, description: 'Withdrawal on the buy exchange and deposit on the sell exchange are open on `network`' })
  transferable: boolean;

  @ApiProperty({ example: false, description: 'Some fee in netProfitPercent is a default (taker 0.1 %, withdrawal 1 USD), not the exchange’s own figure' })
  costsEstimated: boolean;

  @ApiProperty({
    example: '2026-11-22T11:59:48.050Z',
    description: 'ISO 8601 time this route’s gross spread last rose above ARBITRAGE_MIN_PROFIT_PERCENT',
  })
  openedAt: string;

  @ApiProperty({ example: 12150, type: 'integer', description: 'timestamp − openedAt, in ms' })
  ageMs: number;

  // Additive: the route priced at a size, walking both order books.

  @ApiProperty({
    type: OpportunitySizeDto,
    nullable: true,
    description: 'The route priced at the client\'s `size` (default NET_REFERENCE_USDT) walking both order books; null while ' +
      'either book is unknown (not held yet, older than 5 s, or DEPTH_ENABLED=0)',
  })
  size: OpportunitySizeDto | null;

  // Additive: venues that quote in USDC, and on-chain venues.

  @ApiProperty({
    type: [QuoteConversionDto],
    description: 'For each side quoted in USDC (a USDC venue: its ticker there is BASE-USDC), how its price was brought into ' +
      'USDT: buyPrice and sellPrice are USDT; the rate is a published USDC-USDT spot mid, never 1:1. Empty when both sides quote USDT',
  })
  quoteConversions: QuoteConversionDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'How a transfer to or from an on-chain venue of the route is treated (it publishes no withdrawal-fee table); null when both are exchanges',
  })
  transferNote: string | null;
}
