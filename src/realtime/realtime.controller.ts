import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiSseStream } from '../common/sse/api-sse.decorator.js';
import { SseHub } from '../common/sse/sse-hub.service.js';
import { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { PriceSnapshotEntryDto } from './dto/price-snapshot-entry.dto.js';
import { OpportunityStreamService } from './opportunity-stream.service.js';
import { PriceSnapshotService } from './price-snapshot.service.js';

@ApiTags('realtime')
@Controller('v1/realtime')
export class RealtimeController {
  constructor(
    private readonly sse: SseHub,
    private readonly opportunities: OpportunityStreamService,
    private readonly prices: PriceSnapshotService,
  ) {}

  @Get('arbitrage')
  @ApiOperation({
    operationId: 'streamOpportunities',
    summary: 'Stream of cross-exchange spot arbitrage opportunities, 200 ms debounce per symbol',
    description: 'Without ENABLED_WEBSOCKET=1 the stream opens and stays silent.',
  })
  @ApiSseStream({
    payload: OpportunityEventDto,
    cadence: 'One message per detected opportunity, at most one per symbol per 200 ms.',
    exampleUrl: '/v1/realtime/arbitrage',
    replay: { kept: '10,000 events (at most 5 minutes)' },
  })
  arbitrage(@Req() req: Request, @Res() res: Response, @Headers('last-event-id') lastEventId?: string): void {
    this.sse.open(req, res, this.opportunities.frames(parseEventId(lastEventId)), { stream: 'arbitrage', policy: 'reliable' });
  }

  @Get('prices')
  @ApiOperation({
    operationId: 'streamPrices',
    summary: 'Every second, all cached prices of every exchange with an active realtime connection',
    description: 'Entries carry the additive `market` member. The payload can be large.',
  })
  @ApiSseStream({
    payload: [PriceSnapshotEntryDto],
    cadence: 'Every second one message with every cached price.',
    exampleUrl: '/v1/realtime/prices',
  })
  pricesStream(@Req() req: Request, @Res() res: Response): void {
    this.sse.open(req, res, this.prices.frames, { stream: 'prices', policy: 'latest' });
  }
}

function parseEventId(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : null;
}
