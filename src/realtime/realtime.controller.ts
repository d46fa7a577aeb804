import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiSseStream } from '../common/sse/api-sse.decorator.js';
import { SseHub } from '../common/sse/sse-hub.service.js';
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
    summary: 'Stream of cross-exchange spot arbitrage opportunities (SPEC 2.6), 200 ms debounce per symbol',
    description:
      'Each event carries an increasing `id:`. Reconnect with `Last-Event-ID` to receive the events after it ' +
      'that are still kept (last 10,000, at most 5 minutes), then live ones. Without ENABLED_WEBSOCKET=1 the ' +
      'stream opens and stays silent.',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id' })
  @ApiSseStream('One `id: <n>` + `data: <OpportunityEventDto JSON>` message per detected opportunity')
  arbitrage(@Req() req: Request, @Res() res: Response, @Headers('last-event-id') lastEventId?: string): void {
    this.sse.open(req, res, this.opportunities.frames(parseEventId(lastEventId)), { stream: 'arbitrage', policy: 'reliable' });
  }

  @Get('prices')
  @ApiOperation({
    summary: 'Every second, all cached prices of every exchange with an active realtime connection (SPEC 2.7)',
    description: 'Each event is a JSON array of PriceSnapshotEntryDto (with `market`, D6). No filtering parameter exists.',
  })
  @ApiSseStream('One `data: [<PriceSnapshotEntryDto>, …]` message per second')
  pricesStream(@Req() req: Request, @Res() res: Response): void {
    this.sse.open(req, res, this.prices.frames, { stream: 'prices', policy: 'latest' });
  }
}

function parseEventId(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : null;
}
