import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { VENUES } from '../../venues/registry.js';

/** The example names a venue of the registry that quotes in USDC. */
const USDC_VENUE_EXAMPLE = VENUES.find((v) => v.quoteCurrency === 'USDC')?.name ?? VENUES[0].name;

/** Where the USDC/USDT rate of a conversion was read: a USDC-USDT spot book of a watched venue. */
export class QuoteConversionRateSourceDto {
  @ApiField.exchange({ description: 'The venue whose USDC-USDT spot book the rate is the mid of' })
  exchange: string;

  @ApiProperty({ example: 'USDC-USDT', enum: ['USDC-USDT'] })
  ticker: string;

  @ApiProperty({ example: 0.9998 })
  bid: number;

  @ApiProperty({ example: 0.9999 })
  ask: number;
}

/** One side of an opportunity quoted in USDC, brought into USDT at a published rate (never 1:1). */
export class QuoteConversionDto {
  @ApiField.exchange({ example: USDC_VENUE_EXAMPLE, description: 'The venue that quotes this market in USDC' })
  exchange: string;

  @ApiProperty({ example: 'USDC', enum: ['USDC'] })
  from: string;

  @ApiProperty({ example: 'USDT', enum: ['USDT'] })
  to: string;

  @ApiProperty({ example: 0.99985, description: 'USDT per USDC: the mid of the narrowest fresh USDC-USDT spot book among the watched USDT venues' })
  rate: number;

  @ApiProperty({ type: QuoteConversionRateSourceDto })
  rateSource: QuoteConversionRateSourceDto;

  @ApiProperty({ example: 97001.1, description: 'The venue\'s own bid, USDC per unit of the asset' })
  bidUsdc: number;

  @ApiProperty({ example: 97001.3, description: 'The venue\'s own ask, USDC per unit of the asset' })
  askUsdc: number;
}
