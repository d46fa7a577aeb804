import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** An opportunity priced at a size, walking both order books. */
export class OpportunitySizeDto {
  @ApiField.number({ example: 1000, description: 'USDT priced: the client\'s `size`, else NET_REFERENCE_USDT' })
  notionalUsdt: number;

  @ApiField.number({ example: 64010.25, nullable: true, description: 'USDT spent ÷ quantity bought walking the buy exchange\'s asks (12 decimals); null when nothing fills' })
  buyAvgPrice: number | null;

  @ApiField.number({ example: 64140.8, nullable: true, description: 'USDT received ÷ quantity sold walking the sell exchange\'s bids (12 decimals); null when nothing fills' })
  sellAvgPrice: number | null;

  @ApiField.number({ example: 1000, minimum: 0, description: 'USDT the two books can take up to notionalUsdt (less when either runs out), 8 decimals' })
  filledUsdt: number;

  @ApiField.number({
    example: 0.0019,
    nullable: true,
    description: 'Net spread at the fill, percent, 8 decimals: the rule of netProfitPercent with the average prices and filledUsdt ' +
      'as the notional (the withdrawal fee in base units is priced at buyAvgPrice); null when nothing fills',
  })
  netProfitPercent: number | null;

  @ApiField.number({
    example: 25000,
    minimum: 0,
    description: 'Largest notional, USDT (8 decimals), whose net spread is ≥ the client\'s minNetProfit (≥ 0 without one), ' +
      'solved exactly over the books\' levels; at most what the books hold; 0 when no size is',
  })
  maxSizeUsdt: number;

  @ApiField.integer({ example: 120, minimum: 0, description: 'Age of the older of the two books, ms (a book older than 5,000 ms is unknown: size null)' })
  depthAgeMs: number;
}
