import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ArbitrageRateLimit } from '../common/rate-limit/arbitrage-rate-limit.decorator.js';
import { BacktestRequestDto } from './dto/backtest-request.dto.js';
import { BacktestResultDto } from './dto/backtest-result.dto.js';
import { BacktestSweepRequestDto, BacktestSweepResultDto } from './dto/backtest-sweep.dto.js';
import { HistoryStatsQueryDto } from './dto/history-stats-query.dto.js';
import { HistoryStatsDto } from './dto/history-stats.dto.js';
import { ImportHistoryResultDto, ImportHistoryRowDto } from './dto/import-history.dto.js';
import { RouteLifetimesDto, RouteLifetimesQueryDto } from './dto/route-lifetimes.dto.js';
import { SpreadSeriesDto, SpreadSeriesQueryDto } from './dto/spread-series.dto.js';
import { SpreadSamplesDto, SpreadSamplesQueryDto } from './dto/spread-samples.dto.js';
import { NDJSON } from './import-rows.js';
import { HISTORY_UNAVAILABLE, OpportunityHistoryService } from './opportunity-history.service.js';

const ROUTE_400 = [
  'ticker is required', 'buy is required', 'sell is required', 'days is required', 'threshold is required',
  'ticker is invalid', 'buy must be one of …', 'sell must be one of …', 'buy and sell must differ',
  'days must be an integer from 1 to 90', 'threshold must be a number from 0 to 100', 'basis must be net or gross',
];

@ApiTags('opportunity-history')
@ArbitrageRateLimit()
@Controller('v1/opportunity-history')
export class OpportunityHistoryController {
  constructor(private readonly history: OpportunityHistoryService) {}

  @Post('import')
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to import opportunity history')
  @ApiOperation({
    operationId: 'importOpportunityHistory',
    summary: 'Backfill opportunity history',
    description:
      'A JSON array (application/json) or NDJSON (application/x-ndjson), up to 100,000 rows and 64 MiB. ' +
      'Every row is validated first; one invalid row rejects the request, naming it. Idempotent: same ' +
      'route and time → one row, the newer values win.',
  })
  @ApiConsumes('application/json', NDJSON)
  @ApiBody({ type: [ImportHistoryRowDto], description: 'JSON array of rows, or one JSON row per line as NDJSON' })
  @ApiOkResponse({ type: ImportHistoryResultDto })
  @ApiErrors({
    400: ['Invalid request body', 'row 3: buyPrice must be a positive number', 'row 1: time is required', 'at most 100000 rows per import'],
    413: ['request body too large'],
    503: [HISTORY_UNAVAILABLE],
  })
  import(@Body() body: unknown): Promise<ImportHistoryResultDto> {
    return this.history.import(body);
  }

  @Get('stats')
  @FailureMessage('Failed to get opportunity history stats')
  @ApiOperation({ operationId: 'getOpportunityHistoryStats', summary: 'Spread statistics of one route over the look-back' })
  @ApiOkResponse({ type: HistoryStatsDto })
  @ApiErrors({ 400: ROUTE_400, 503: [HISTORY_UNAVAILABLE] })
  stats(@Query() query: HistoryStatsQueryDto): Promise<HistoryStatsDto> {
    return this.history.stats(query);
  }

  @Get('lifetimes')
  @FailureMessage('Failed to get route lifetimes')
  @ApiOperation({
    operationId: 'getRouteLifetimes',
    summary: 'How long a route\'s spread stays above the live threshold',
    description:
      'An episode opens when the route\'s gross spread rises above ARBITRAGE_MIN_PROFIT_PERCENT and closes when it ' +
      'falls back to or under it, or a quote goes stale. Counts the episodes that opened in the look-back; median and ' +
      'p90 lifetime by nearest rank; transferableShare = episodes transferable when they closed ÷ episodes.',
  })
  @ApiOkResponse({ type: RouteLifetimesDto })
  @ApiErrors({ 400: ROUTE_400.filter((m) => !m.startsWith('threshold') && !m.startsWith('basis')), 503: [HISTORY_UNAVAILABLE] })
  lifetimes(@Query() query: RouteLifetimesQueryDto): Promise<RouteLifetimesDto> {
    return this.history.lifetimes(query);
  }

  @Get('series')
  @FailureMessage('Failed to get spread series')
  @ApiOperation({
    operationId: 'getSpreadSeries',
    summary: 'A route\'s recorded spread over the look-back, bucketed by time for a chart',
    description:
      'At most 500 buckets of whole seconds aligned on the Unix epoch (bucketSeconds = look-back ÷ 499 rounded up, ' +
      'at least the recording interval); each bucket holding samples answers their count and the lowest, average and ' +
      'highest spread on the basis, rounded to 8 decimals. One aggregate query.',
  })
  @ApiOkResponse({ type: SpreadSeriesDto })
  @ApiErrors({ 400: [...ROUTE_400.filter((m) => !m.startsWith('threshold'))], 503: [HISTORY_UNAVAILABLE] })
  series(@Query() query: SpreadSeriesQueryDto): Promise<SpreadSeriesDto> {
    return this.history.series(query);
  }

  @Get('samples')
  @FailureMessage('Failed to get spread samples')
  @ApiOperation({
    operationId: 'getSpreadSamples',
    summary: 'A route\'s recorded samples over the last minutes, each at its own time',
    description:
      'Every sample of the span as recorded: the opportunity stream\'s events, the closing spread of a route it showed, ' +
      'and the heartbeat every HISTORY_INTERVAL_MS. A sample holds its spread until the next one, at most holdMs. ' +
      'At most the newest 10,000 (truncated says so); spreads on the basis, rounded to 8 decimals.',
  })
  @ApiOkResponse({ type: SpreadSamplesDto })
  @ApiErrors({
    400: [
      'ticker is required', 'buy is required', 'sell is required', 'minutes is required', 'ticker is invalid', 'buy must be one of …',
      'sell must be one of …', 'buy and sell must differ', 'minutes must be an integer from 1 to 1440', 'basis must be net or gross',
    ],
    503: [HISTORY_UNAVAILABLE],
  })
  samples(@Query() query: SpreadSamplesQueryDto): Promise<SpreadSamplesDto> {
    return this.history.samples(query);
  }

  @Post('backtest')
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to run backtest')
  @ApiOperation({
    operationId: 'runBacktest',
    summary: 'Simulate a route with transfer time and costs',
    description:
      'One operation per window; the exit is at the spread observed on arrival; an expired operation is ' +
      'closed at spread 0 and still pays its costs; unresolved operations are excluded from the aggregates.',
  })
  @ApiOkResponse({ type: BacktestResultDto })
  @ApiErrors({
    400: [
      'Invalid request body', ...ROUTE_400,
      'capital must be a number from 10 to 10000000', 'transferMinutes must be an integer from 0 to 1440',
      'breakdown must be day, week or month',
    ],
    503: [HISTORY_UNAVAILABLE],
  })
  backtest(@Body() body: BacktestRequestDto): Promise<BacktestResultDto> {
    return this.history.backtest(body);
  }

  @Post('backtest/sweep')
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to run backtest sweep')
  @ApiOperation({
    operationId: 'runBacktestSweep',
    summary: 'The route backtest for every threshold × transfer time, ranked',
    description:
      'Up to 20 thresholds × 10 transfer times (200 combinations), each row what the backtest with those parameters ' +
      'answers (trades, netUsd, metrics.maxDrawdownUsd, metrics.sharpe). The look-back is read once for all of them.',
  })
  @ApiOkResponse({ type: BacktestSweepResultDto })
  @ApiErrors({
    400: [
      'Invalid request body', ...ROUTE_400.filter((m) => !m.startsWith('threshold')),
      'thresholds is required', 'transferMinutes is required',
      'thresholds must be an array of 1 to 20 numbers from 0 to 100', 'thresholds must not repeat a value',
      'transferMinutes must be an array of 1 to 10 integers from 0 to 1440', 'transferMinutes must not repeat a value',
      'capital must be a number from 10 to 10000000', 'sort must be one of netUsd, trades, maxDrawdownUsd, sharpe',
    ],
    503: [HISTORY_UNAVAILABLE],
  })
  sweep(@Body() body: BacktestSweepRequestDto): Promise<BacktestSweepResultDto> {
    return this.history.sweep(body);
  }
}
