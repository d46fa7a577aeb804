import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse, ApiExcludeEndpoint, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppError } from '../common/errors/app-error.js';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { callerOf } from '../common/http/request-context.js';
import { ApiIdParam, EXAMPLE_UUID } from '../common/openapi/api-field.decorator.js';
import { ApiSseStream } from '../common/sse/api-sse.decorator.js';
import { SseHub } from '../common/sse/sse-hub.service.js';
import { CreateLookerDto } from './dto/create-looker.dto.js';
import { LookerOwnerQueryDto } from './dto/looker-owner-query.dto.js';
import { LookerPriceEventDto } from './dto/looker-price-event.dto.js';
import { LookerDto } from './dto/looker.dto.js';
import { UpdateLookerDto } from './dto/update-looker.dto.js';
import { ID_REQUIRED, LookerIdParam } from './looker-id.pipe.js';
import { LOOKER_STREAM_NAME } from './lookers.constants.js';
import { LookersService } from './lookers.service.js';
import { DEFAULT_EXCHANGES, oneOfExchanges } from '../market-model/exchanges.js';

const CRYPTO_ERRORS = ['maximum 6 cryptos allowed', 'ticker is invalid', 'cryptos must be an array of tickers'];
const NAME_ERRORS = ['name must be a string', 'name must be at most 100 characters'];

@ApiTags('lookers')
@Controller('v1/lookers')
export class LookersController {
  constructor(
    private readonly lookers: LookersService,
    private readonly hub: SseHub,
  ) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @FailureMessage('Failed to create looker')
  @ApiOperation({ operationId: 'createLooker', summary: 'Create a looker: a named watchlist of up to 6 cryptos on one exchange and market' })
  @ApiCreatedResponse({ type: LookerDto })
  @ApiErrors({
    400: [
      'Invalid request body', 'email is required', ...CRYPTO_ERRORS, 'email is invalid', ...NAME_ERRORS,
      oneOfExchanges('exchange', DEFAULT_EXCHANGES), 'market must be SPOT or FUTURES',
    ],
    500: ['Failed to create looker'],
  })
  create(@Body() dto: CreateLookerDto): Promise<LookerDto> {
    return this.lookers.create(dto);
  }

  @Get()
  @FailureMessage('Failed to get lookers')
  @ApiOperation({ operationId: 'listLookers', summary: "A user's lookers, newest first ([] when none)" })
  @ApiOkResponse({ type: [LookerDto] })
  @ApiErrors({ 400: ['email parameter is required', 'email is invalid'], 500: ['Failed to get lookers'] })
  list(@Query() query: LookerOwnerQueryDto): Promise<LookerDto[]> {
    return this.lookers.list(query.email);
  }

  // `{:id}` is optional so that a request without an id reaches LookerIdParam: 400, not a bare 404.
  @Patch('{:id}')
  @FailureMessage('Failed to update looker')
  @ApiOperation({ operationId: 'updateLooker', summary: "Rename a looker and/or replace its cryptos (same rules as creation); open streams follow" })
  @ApiIdParam('Identifier of the looker')
  @ApiOkResponse({ type: LookerDto })
  @ApiErrors({
    400: ['id parameter is required', 'email parameter is required', 'email is invalid', 'name or cryptos is required', ...CRYPTO_ERRORS, ...NAME_ERRORS],
    404: ['looker not found'],
    500: ['Failed to update looker'],
  })
  update(
    @Param('id', LookerIdParam) id: string,
    @Query() query: LookerOwnerQueryDto,
    @Body() dto: UpdateLookerDto,
  ): Promise<LookerDto> {
    return this.lookers.update(id, query.email, dto);
  }

  @Delete('{:id}')
  @HttpCode(HttpStatus.NO_CONTENT)
  @FailureMessage('Failed to delete looker')
  @ApiOperation({ operationId: 'deleteLooker', summary: "Delete one of the user's lookers; its open streams end" })
  @ApiIdParam('Identifier of the looker')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({
    400: ['id parameter is required', 'email parameter is required', 'email is invalid'],
    404: ['looker not found'],
    500: ['Failed to delete looker'],
  })
  remove(@Param('id', LookerIdParam) id: string, @Query() query: LookerOwnerQueryDto): Promise<void> {
    return this.lookers.remove(id, query.email);
  }

  /** `/v1/lookers//stream` after a proxy merged its slashes: the id is what is missing. */
  @Get('stream')
  @ApiExcludeEndpoint()
  streamWithoutId(): never {
    throw AppError.invalid(ID_REQUIRED);
  }

  @Get('{:id}/stream')
  @FailureMessage('Failed to load looker')
  @ApiOperation({
    operationId: 'streamLooker',
    summary: 'Live prices of a looker (SSE): every second one event per crypto, flushed together',
    description:
      'A crypto never quoted has null ask, bid, volume and updatedAt and stale=true; without a realtime feed ' +
      '(ENABLED_WEBSOCKET off) every event is stale. The stream ends when the looker is deleted.',
  })
  @ApiIdParam('Identifier of the looker')
  @ApiSseStream({
    payload: LookerPriceEventDto,
    cadence: 'Every second, one message per crypto of the looker (at most 6), all written in one flush.',
    exampleUrl: `/v1/lookers/${EXAMPLE_UUID}/stream`,
  })
  @ApiErrors({
    400: ['id parameter is required'],
    404: ['looker not found'],
    500: ['Failed to load looker', 'SSE not supported by this server'],
  })
  async stream(@Param('id', LookerIdParam) id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    // The lookup comes first so a missing looker is a JSON 404, never an opened stream (rules: streams).
    const frames = await this.lookers.stream(id, callerOf(req)?.email);
    return this.hub.open(req, res, frames, { stream: LOOKER_STREAM_NAME, policy: 'latest' });
  }
}
