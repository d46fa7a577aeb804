import { Controller, Get, Headers, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiSseStream } from '../common/sse/api-sse.decorator.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ArbitrageStreamQueryDto } from './dto/arbitrage-stream-query.dto.js';
import { AppError } from '../common/errors/app-error.js';
import { FILTER_MESSAGES, parseOpportunityFilter } from './opportunity-filter.js';
import { SseHub } from '../common/sse/sse-hub.service.js';
import { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { PriceSnapshotEntryDto } from './dto/price-snapshot-entry.dto.js';
import { OpportunityStreamService } from './opportunity-stream.service.js';
import { PriceSnapshotService } from './price-snapshot.service.js';
import { MarketDataGap } from '../redis/market-data-gap.js';
import { DEFAULT_EXCHANGES } from '../market-model/exchanges.js';

export const LAST_EVENT_ID_MESSAGE = 'lastEventId must be an event id of 1 to 16 digits';

@ApiTags('realtime')
@Controller('v1/realtime')
export class RealtimeController {
  constructor(
    private readonly sse: SseHub,
    private readonly opportunities: OpportunityStreamService,
    private readonly prices: PriceSnapshotService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly gap: MarketDataGap,
  ) {}

  @Get('arbitrage')
  @ApiOperation({
    operationId: 'streamOpportunities',
    summary: 'Stream of cross-exchange spot arbitrage opportunities, 200 ms debounce per symbol',
    description:
      'Without ENABLED_WEBSOCKET=1 the stream opens and stays silent. Optional filters (all must hold) select the ' +
      'events a client receives, the replay included; ids stay those of the unfiltered stream. Invalid filters are ' +
      'answered 400 before the stream opens. On an API instance (ROLE=api) whose Redis does not answer, ' +
      '`event: market-data-missing` with `{"message":"market data not found"}` comes every second until Redis returns.',
  })
  @ApiSseStream({
    payload: OpportunityEventDto,
    cadence: 'One message per detected opportunity, at most one per symbol per 200 ms.',
    exampleUrl: '/v1/realtime/arbitrage',
    replay: { kept: '10,000 events (at most 5 minutes)' },
  })
  @ApiErrors({
    400: [
      FILTER_MESSAGES.minProfit, FILTER_MESSAGES.minNetProfit, FILTER_MESSAGES.transferable,
      FILTER_MESSAGES.exchanges(DEFAULT_EXCHANGES), FILTER_MESSAGES.exchangesPair, FILTER_MESSAGES.tickers,
      FILTER_MESSAGES.size, FILTER_MESSAGES.minSize, LAST_EVENT_ID_MESSAGE,
    ],
  })
  arbitrage(
    @Req() req: Request,
    @Res() res: Response,
    @Query() query: ArbitrageStreamQueryDto,
    @Headers('last-event-id') lastEventId?: string,
  ): void | Promise<void> {
    const clientFilter = parseOpportunityFilter({ ...query }, this.config.marketData.exchanges);
    const resumeAfter = lastEventId !== undefined ? parseEventId(lastEventId) : parseEventIdParam(query.lastEventId);
    return this.sse.open(req, res, this.gap.alongside(this.opportunities.frames(resumeAfter, clientFilter)), { stream: 'arbitrage', policy: 'reliable' });
  }

  @Get('prices')
  @ApiOperation({
    operationId: 'streamPrices',
    summary: 'Every second, all cached prices of every exchange with an active realtime connection',
    description: 'Entries carry the additive `market` member. The payload can be large. On an API instance (ROLE=api) ' +
      'whose Redis does not answer, `event: market-data-missing` comes every second instead, until Redis returns.',
  })
  @ApiSseStream({
    payload: [PriceSnapshotEntryDto],
    cadence: 'Every second one message with every cached price.',
    exampleUrl: '/v1/realtime/prices',
  })
  pricesStream(@Req() req: Request, @Res() res: Response): void | Promise<void> {
    return this.sse.open(req, res, this.gap.instead(this.prices.frames), { stream: 'prices', policy: 'latest' });
  }
}

/** A header a browser sends by itself: an unreadable one resumes nothing rather than failing. */
function parseEventId(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** The query parameter a client writes by hand: a bad one is a 400, like every other parameter. */
function parseEventIdParam(value: unknown): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value.trim())) throw AppError.invalid(LAST_EVENT_ID_MESSAGE);
  return Number(value.trim());
}
