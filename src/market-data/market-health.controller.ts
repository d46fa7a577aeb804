import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiField } from '../common/openapi/api-field.decorator.js';
import { ApiMalformedBodyError } from '../common/http/api-errors.decorator.js';
import { MarketDataService } from './market-data.service.js';
import type { ExchangeHealth, RefusedMarket } from './feed-health.js';
import type { ExchangeName } from './exchanges.js';
import type { ExcludedTicker } from './name-collisions.js';

export class RefusedMarketDto implements RefusedMarket {
  @ApiField.ticker('canonical', { example: 'FOO-USDT' })
  ticker: string;

  @ApiField.enum(['SPOT', 'FUTURES'], { example: 'SPOT' })
  market: 'SPOT' | 'FUTURES';

  @ApiField.string({ example: 'delisted', description: "The exchange's error, or why the market was dropped (`delisted`)" })
  reason: string;

  @ApiField.dateTime({ description: 'When it was refused' })
  at: string;
}

export class ExchangeHealthDto implements ExchangeHealth {
  @ApiField.boolean({ example: true, description: "True while all of the exchange's websocket feeds are up" })
  connected: boolean;

  @ApiField.dateTime({ nullable: true, description: 'Last message from the exchange; null before the first' })
  lastMessageAt: string | null;

  @ApiField.integer({ minimum: 0, example: 0 })
  reconnects: number;

  @ApiField.integer({ minimum: 0, example: 40, description: 'Markets subscribed (refused ones left out)' })
  markets: number;

  @ApiProperty({ type: [RefusedMarketDto], description: 'Markets the exchange refused or delisted, dropped from the feeds (newest last)' })
  refused: RefusedMarketDto[];
}

export class ExcludedTickerDto implements ExcludedTicker {
  @ApiField.ticker('canonical', { example: 'FOO-USDT' })
  ticker: string;

  @ApiField.exchange({ example: 'gate' })
  exchange: ExchangeName;

  @ApiField.string({
    example: 'name collision: mid 50.0 % away from the median of 4 exchanges for over 10 min (threshold 20 %): another coin under the same ticker',
    description: 'Why the exchange\'s ticker is left out of opportunities',
  })
  reason: string;

  @ApiField.dateTime({ description: 'Since when its price has been off the other exchanges\'' })
  since: string;
}

export class MarketHealthDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ExchangeHealthDto) },
    description: 'Every configured exchange, by name',
    example: { binance: { connected: true, lastMessageAt: '2026-01-01T00:00:00.000Z', reconnects: 0, markets: 40, refused: [] } },
  })
  exchanges: Record<string, ExchangeHealth>;

  @ApiProperty({
    type: [ExcludedTickerDto],
    description: 'Tickers of an exchange naming another coin than on the others (its spot price off theirs by more than ' +
      'NAME_COLLISION_SPREAD_PERCENT for NAME_COLLISION_MIN_MS), left out of opportunities until its price is back in line',
  })
  excluded: ExcludedTickerDto[];
}

/** Feed health (D12). Separate from /health, which stays database-only liveness. */
@ApiTags('health')
@Controller('health')
export class MarketHealthController {
  constructor(private readonly marketData: MarketDataService) {}

  @Get('market')
  @ApiOperation({
    operationId: 'getMarketHealth',
    summary: 'Websocket feed state per configured exchange',
    description: '`connected` is true while all of the exchange\'s websocket feeds are up; `lastMessageAt` is RFC 3339 or null; ' +
      '`refused` lists the markets the exchange refused or delisted, dropped from the feeds while the others flow; ' +
      '`excluded` the tickers of an exchange that name another coin (a lasting price gap), left out of opportunities.',
  })
  @ApiExtraModels(ExchangeHealthDto)
  @ApiOkResponse({ type: MarketHealthDto })
  @ApiMalformedBodyError()
  market(): MarketHealthDto {
    return this.marketData.marketHealth();
  }
}
