import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ArbitrageRateLimit } from '../common/rate-limit/arbitrage-rate-limit.decorator.js';
import { FundingRatesPageDto } from './dto/funding-rates-page.dto.js';
import { FundingRatesQueryDto } from './dto/funding-rates-query.dto.js';
import { FUNDING_400 } from './funding-query.js';
import { FundingRatesService } from './funding-rates.service.js';

@ApiTags('funding-rates')
@ArbitrageRateLimit()
@Controller('v1/funding-rates')
export class FundingRatesController {
  constructor(private readonly funding: FundingRatesService) {}

  @Get()
  @FailureMessage('Failed to get funding rates')
  @ApiOperation({
    operationId: 'listFundingRates',
    summary: 'Funding-rate ranking of every USDT perpetual',
    description:
      'Ordered by aprPercent descending (signed), entries without APR last, ties by exchange then contract. ' +
      'Served from the ranking built at the last collection (every FUNDING_REFRESH_MS); never queries the exchanges. ' +
      'An entry is stale after 15 minutes without update.',
  })
  @ApiOkResponse({ type: FundingRatesPageDto })
  @ApiErrors({ 400: [FUNDING_400.exchange, FUNDING_400.symbol, FUNDING_400.limit, FUNDING_400.offset] })
  list(@Query() query: FundingRatesQueryDto): FundingRatesPageDto {
    return this.funding.list(query);
  }
}
