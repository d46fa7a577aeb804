import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { INVALID_REQUEST_BODY } from '../common/errors/app-error.js';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ArbitrageRateLimit } from '../common/rate-limit/arbitrage-rate-limit.decorator.js';
import { DEFAULT_EXCHANGES } from '../market-model/exchanges.js';
import { PARSE_FAILURE } from './crossing-counts-body-parser.js';
import { type CrossingJobAccepted, CrossingCountsService } from './crossing-counts.service.js';
import { dateMessage, exchangeMessage, RANGE_MESSAGE } from './crossing-params.js';
import {
  CrossingCountAcceptedDto,
  CrossingCountQueryDto,
  CrossingCountSummaryDto,
  StartCrossingCountDto,
} from './dto/crossing-counts.dto.js';

@ApiTags('crossing-counts')
@ArbitrageRateLimit()
@Controller('v1/arbitrage/future/crossing-counts')
export class CrossingCountsController {
  constructor(private readonly crossingCounts: CrossingCountsService) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @FailureMessage('Failed to start crossing count job')
  @ApiOperation({
    operationId: 'startCrossingCount',
    summary: 'Count spot/futures crossings of a day, in the background',
    description:
      'Answers 202 before the work starts; the job then counts, per (ticker, exchange), the sign reversals of ' +
      'spot mid − futures mid over the recorded samples of that São Paulo day and upserts one record per group ' +
      '(a group with samples but no crossing gets 0). Job failures go to the log and to ' +
      '`crossing_count_job_failures_total`; the client gets no job status.',
  })
  @ApiBody({ type: StartCrossingCountDto, required: false })
  @ApiAcceptedResponse({ type: CrossingCountAcceptedDto })
  @ApiErrors({ 400: [dateMessage('date'), INVALID_REQUEST_BODY], 413: ['request body too large'], 500: [PARSE_FAILURE] })
  start(@Body() body: unknown): CrossingJobAccepted {
    return this.crossingCounts.accept(body);
  }

  @Get()
  @FailureMessage('Failed to get crossing counts')
  @ApiOperation({
    operationId: 'listCrossingCounts',
    summary: 'Crossing counts summed over a range of processed days',
    description:
      'Inclusive São Paulo days, both defaulting to today. `days` counts the processed days in the range that ' +
      'have a record for the pair. Ordered by crossingCount descending, then ticker, then exchange.',
  })
  @ApiOkResponse({ type: [CrossingCountSummaryDto] })
  @ApiErrors({
    400: [dateMessage('from'), dateMessage('to'), RANGE_MESSAGE, 'ticker is invalid', exchangeMessage(DEFAULT_EXCHANGES)],
  })
  list(@Query() query: CrossingCountQueryDto): Promise<CrossingCountSummaryDto[]> {
    return this.crossingCounts.list(query);
  }
}
