import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiIdParam } from '../common/openapi/api-field.decorator.js';
import { ApiSseStream } from '../common/sse/api-sse.decorator.js';
import { SseHub } from '../common/sse/sse-hub.service.js';
import { UuidParam } from '../common/validation/uuid-param.pipe.js';
import { CalculatorStreamsService } from './calculator-streams.service.js';
import { MARKET_DATA_NOT_FOUND } from '../common/sse/market-data-missing.js';
import { CALCULATOR_NOT_FOUND, CALCULATOR_STREAM_NAME } from './calculators.constants.js';
import { CalculatorsService } from './calculators.service.js';
import { ConfiguredExchangePipe } from '../common/validation/configured-exchange.pipe.js';
import { DEFAULT_EXCHANGES, oneOfExchanges } from '../market-model/exchanges.js';
import { CalculatorDto } from './dto/calculator.dto.js';
import { CalculatorOwnerQueryDto } from './dto/calculator-owner-query.dto.js';
import { CalculatorPnlDto, MarketDataMissingEventDto } from './dto/calculator-pnl.dto.js';
import { CalculatorPositionDto } from './dto/calculator-position.dto.js';
import { SaveCalculatorDto } from './dto/save-calculator.dto.js';

const NUMBER_ERRORS = ['entrySpotValue', 'entryShortValue', 'entrySpotQty', 'entryFuturesQty'].flatMap((f) => [
  `${f} is required`,
  `${f} must be a number`,
  `${f} must be a positive number`,
]);
const POSITION_400 = ['email is required', 'ticker is required', 'exchange is required', 'email is invalid', 'ticker is invalid', oneOfExchanges('exchange', DEFAULT_EXCHANGES)];

@ApiTags('calculators')
@Controller('v1/calculators')
export class CalculatorsController {
  constructor(
    private readonly calculators: CalculatorsService,
    private readonly streams: CalculatorStreamsService,
    private readonly hub: SseHub,
  ) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to create or update calculator')
  @ApiOperation({
    operationId: 'saveCalculator',
    summary: 'Save a position: creates the entry of (email, ticker) or overwrites its values and quantities',
    description: 'One entry per (email, ticker). A repeat keeps the id and creation timestamp. Prices and quantities must be > 0.',
  })
  @ApiOkResponse({ type: CalculatorDto })
  @ApiErrors({
    400: ['Invalid request body', 'email is required', 'ticker is required', 'email is invalid', 'ticker is invalid', ...NUMBER_ERRORS],
    500: ['Failed to create or update calculator'],
  })
  save(@Body() dto: SaveCalculatorDto): Promise<CalculatorDto> {
    return this.calculators.save(dto);
  }

  @Get()
  @FailureMessage('Failed to get calculators')
  @ApiOperation({ operationId: 'listCalculators', summary: "A user's saved positions, newest first ([] when none)" })
  @ApiOkResponse({ type: [CalculatorDto] })
  @ApiErrors({ 400: ['email is required', 'email is invalid'], 500: ['Failed to get calculators'] })
  list(@Query() query: CalculatorOwnerQueryDto): Promise<CalculatorDto[]> {
    return this.calculators.list(query.email);
  }

  @Post('process')
  @HttpCode(HttpStatus.OK)
  @FailureMessage('Failed to process calculator')
  @ApiOperation({
    operationId: 'processCalculator',
    summary: 'One PNL reading of a saved position against the latest market data of an exchange',
    description:
      'Current prices are the spot BID and futures ASK of the latest recorded sample no older than 20 minutes, ' +
      'cached 55 s per (ticker, exchange).',
  })
  @ApiOkResponse({ type: CalculatorPnlDto })
  @ApiErrors({
    400: ['Invalid request body', ...POSITION_400],
    404: [CALCULATOR_NOT_FOUND, MARKET_DATA_NOT_FOUND],
    500: ['Failed to process calculator'],
  })
  process(@Body(ConfiguredExchangePipe) dto: CalculatorPositionDto): Promise<CalculatorPnlDto> {
    return this.calculators.process(dto);
  }

  @Get('stream')
  @FailureMessage('Failed to stream calculator')
  @ApiOperation({
    operationId: 'streamCalculator',
    summary: 'PNL of a saved position every second (SSE)',
    description: 'The stream ends if the entry is deleted.',
  })
  @ApiSseStream({
    payload: CalculatorPnlDto,
    cadence: 'Every second one PNL reading, from market data cached 5 s.',
    exampleUrl: '/v1/calculators/stream?email=trader@example.com&ticker=BTC-USDT&exchange=binance',
    events: [
      {
        name: 'market-data-missing',
        payload: MarketDataMissingEventDto,
        when: 'instead of the reading, each second while the exchange has no market data from the last 20 minutes; readings resume when data returns',
      },
    ],
  })
  @ApiErrors({ 400: POSITION_400, 404: [CALCULATOR_NOT_FOUND], 500: ['Failed to stream calculator'] })
  async stream(@Query(ConfiguredExchangePipe) query: CalculatorPositionDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    // The lookup comes first so a missing entry is a JSON 404, never an opened stream (rules: streams).
    const frames = await this.streams.open(query);
    return this.hub.open(req, res, frames, { stream: CALCULATOR_STREAM_NAME, policy: 'latest' });
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @FailureMessage('Failed to delete calculator')
  @ApiOperation({ operationId: 'deleteCalculator', summary: "Remove one of the user's saved positions; its open streams end" })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors({ 400: ['email is required', 'email is invalid'], 404: [CALCULATOR_NOT_FOUND], 500: ['Failed to delete calculator'] })
  @ApiIdParam('Identifier of the calculator entry')
  remove(@Param('id', new UuidParam(CALCULATOR_NOT_FOUND)) id: string, @Query() query: CalculatorOwnerQueryDto): Promise<void> {
    return this.calculators.remove(id, query.email);
  }
}
