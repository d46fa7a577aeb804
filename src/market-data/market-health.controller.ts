import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MarketDataService } from './market-data.service.js';
import type { ExchangeHealth } from './feed-health.js';

export class MarketHealthDto {
  exchanges: Record<string, ExchangeHealth>;
}

/** Feed health (D12). Separate from /health, which stays database-only liveness. */
@ApiTags('health')
@Controller('health')
export class MarketHealthController {
  constructor(private readonly marketData: MarketDataService) {}

  @Get('market')
  @ApiOperation({
    summary: 'Websocket feed state per configured exchange',
    description: '`connected` is true while all of the exchange\'s websocket feeds are up; `lastMessageAt` is RFC 3339 or null; ' +
      '`refused` lists the markets the exchange refused or delisted, dropped from the feeds while the others flow.',
  })
  @ApiOkResponse({
    schema: {
      example: {
        exchanges: {
          binance: { connected: true, lastMessageAt: '2026-01-01T00:00:00.000Z', reconnects: 0, markets: 40, refused: [] },
          okx: {
            connected: true, lastMessageAt: '2026-01-01T00:00:00.000Z', reconnects: 1, markets: 39,
            refused: [{ ticker: 'FOO-USDT', market: 'SPOT', reason: 'BadRequest: okx {"event":"error","code":"60018",...}', at: '2026-01-01T00:00:00.000Z' }],
          },
        },
      },
    },
  })
  market(): MarketHealthDto {
    return { exchanges: this.marketData.healthReport() };
  }
}
