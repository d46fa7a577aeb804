import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiField } from '../common/openapi/api-field.decorator.js';
import { ApiMalformedBodyError } from '../common/http/api-errors.decorator.js';
import { MarketDataService } from './market-data.service.js';
import type { ExchangeHealth, RefusedMarket } from './feed-health.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import type { ExcludedTicker } from './name-collisions.js';
import type { FeedsState } from './market-data.service.js';

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

  @ApiField.dateTime({
    nullable: true,
    description: "While the venue bans this service's REST calls (binance 429/418 with Retry-After, bybit 403 for 10 minutes, okx, gate and bitget 429): no call is made to it until then; null when no ban runs",
  })
  restBannedUntil: string | null;
}

export class ContractMismatchDto {
  @ApiField.string({ example: 'ERC20', description: 'The network both exchanges give an address on, as ccxt names it' })
  network: string;

  @ApiField.string({ example: '0x6982508145454ce325ddbe47a25d4ec3d2311933', description: 'This exchange\'s contract address' })
  address: string;

  @ApiField.string({ example: '0x1111111111111111111111111111111111111111', description: 'The other exchange\'s contract address' })
  otherAddress: string;
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

  @ApiField.dateTime({ description: 'Since when its price has been off the other exchanges\', or its contract was seen to differ (the epoch for a SYMBOL_DENYLIST entry)' })
  since: string;

  @ApiProperty({
    required: false, type: ContractMismatchDto,
    description: 'Present for a contract mismatch: the network compared, this exchange\'s token address there and the other exchange\'s',
  })
  contract?: ContractMismatchDto;
}

export class MarketHealthDto {
  @ApiField.enum(['on', 'off'], {
    example: 'on',
    description: '`off` while ENABLED_WEBSOCKET is off: no venue is watched, so every exchange below shows `connected: false` ' +
      'for that reason alone (set ENABLED_WEBSOCKET=1 to start the feeds); `on` when the feeds run, their state per exchange below',
  })
  feeds: FeedsState;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ExchangeHealthDto) },
    description: 'Every configured exchange, by name',
    example: { binance: { connected: true, lastMessageAt: '2026-01-01T00:00:00.000Z', reconnects: 0, markets: 40, refused: [], restBannedUntil: null } },
  })
  exchanges: Record<string, ExchangeHealth>;

  @ApiProperty({
    type: [ExcludedTickerDto],
    description: 'Tickers of an exchange naming another coin than on the others, left out of opportunities: its token ' +
      'contract address differs on a network both list (at once, `contract` gives both addresses), or, with no address ' +
      'known, its spot price is off theirs by more than NAME_COLLISION_SPREAD_PERCENT for NAME_COLLISION_MIN_MS (until it ' +
      'is back in line); and the tickers SYMBOL_DENYLIST leaves out',
  })
  excluded: ExcludedTickerDto[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0 },
    description: 'Order books held now per configured exchange (both legs of open spot routes and of routes in their ' +
      'DEPTH_GRACE_MS grace period, DEPTH_MAX_BOOKS at most over all exchanges), counted once their first state arrived',
    example: { binance: 12, bybit: 4, okx: 9, gate: 3, bitget: 2 },
  })
  books: Record<string, number>;
}

/** Feed health (rules: operating). Separate from /health, which stays database-only liveness. */
@ApiTags('health')
@Controller('health')
export class MarketHealthController {
  constructor(private readonly marketData: MarketDataService) {}

  @Get('market')
  @ApiOperation({
    operationId: 'getMarketHealth',
    summary: 'Websocket feed state per configured exchange',
    description: '`feeds` is `off` while ENABLED_WEBSOCKET is off (no venue watched). ' +
      '`connected` is true while all of the exchange\'s websocket feeds are up; `lastMessageAt` is RFC 3339 or null; ' +
      '`refused` lists the markets the exchange refused or delisted, dropped from the feeds while the others flow; ' +
      '`excluded` the tickers of an exchange that name another coin (a lasting price gap), left out of opportunities; ' +
      '`books` the order books held per exchange.',
  })
  @ApiExtraModels(ExchangeHealthDto)
  @ApiOkResponse({ type: MarketHealthDto })
  @ApiMalformedBodyError()
  market(): MarketHealthDto {
    return this.marketData.marketHealth();
  }
}
