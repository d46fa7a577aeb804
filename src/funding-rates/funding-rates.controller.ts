import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ArbitrageRateLimit } from '../common/rate-limit/arbitrage-rate-limit.decorator.js';
import { FundingRatesPageDto } from './dto/funding-rates-page.dto.js';
import { FundingRatesQueryDto } from './dto/funding-rates-query.dto.js';
import { DEFAULT_EXCHANGES } from '../market-model/exchanges.js';
import { FUNDING_400 } from './funding-query.js';
import { HISTORY_400, SPREADS_400 } from './funding-extra-query.js';
import { FundingHistoryQueryDto, FundingSettlementDto } from './dto/funding-history.dto.js';
import { FundingSpreadsPageDto, FundingSpreadsQueryDto } from './dto/funding-spreads.dto.js';
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
  @ApiErrors({ 400: [FUNDING_400.exchange(DEFAULT_EXCHANGES), FUNDING_400.symbol, FUNDING_400.ticker, FUNDING_400.sort, FUNDING_400.limit, FUNDING_400.offset] })
  list(@Query() query: FundingRatesQueryDto): FundingRatesPageDto {
    return this.funding.list(query);
  }

  @Get('history')
  @FailureMessage('Failed to get funding history')
  @ApiOperation({
    operationId: 'listFundingHistory',
    summary: 'Settled funding payments of one coin',
    description:
      'Oldest first (exchange breaks ties), from the funding_settlements table the collector fills from each venue\'s ' +
      'funding-history call and from what it saw settle. At most 90 days × 24 payments × 5 exchanges rows.',
  })
  @ApiOkResponse({ type: [FundingSettlementDto] })
  @ApiErrors({ 400: [HISTORY_400.tickerRequired, HISTORY_400.ticker, HISTORY_400.exchange(DEFAULT_EXCHANGES), HISTORY_400.days] })
  history(@Query() query: FundingHistoryQueryDto): Promise<FundingSettlementDto[]> {
    return this.funding.history(query);
  }

  @Get('spreads')
  @FailureMessage('Failed to get funding spreads')
  @ApiOperation({
    operationId: 'listFundingSpreads',
    summary: 'Cross-exchange funding spread of every coin with perpetuals on two or more exchanges',
    description:
      'For each coin, the pair with the largest difference of annualised predicted funding: long the lower, short the higher. ' +
      'Ranked by aprSpread (largest first), ties by ticker. Served from the ranking built at the last collection.',
  })
  @ApiOkResponse({ type: FundingSpreadsPageDto })
  @ApiErrors({ 400: [SPREADS_400.minAprSpread, SPREADS_400.days, SPREADS_400.limit, SPREADS_400.offset] })
  spreads(@Query() query: FundingSpreadsQueryDto): FundingSpreadsPageDto {
    return this.funding.spreads(query);
  }
}
