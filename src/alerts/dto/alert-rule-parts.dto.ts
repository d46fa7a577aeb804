import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EXCHANGE_NAMES } from '../../market-model/exchanges.js';
import { CHANNEL_TYPES } from '../alert-rule.types.js';

/** A rule's condition; which members apply depends on the rule's kind (unknown members are refused). */
export class AlertConditionDto {
  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 100, example: 0.3, description: 'opportunity: gross spread (profitPercentAskBid) ≥ this, percent' })
  minProfit?: number;

  @ApiPropertyOptional({ type: Number, minimum: -100, maximum: 100, example: 0.05, description: 'opportunity: netProfitPercent ≥ this' })
  minNetProfit?: number;

  @ApiPropertyOptional({ type: Boolean, example: true, description: 'opportunity: only transferable routes' })
  transferable?: boolean;

  @ApiPropertyOptional({
    type: 'array', items: { type: 'string', enum: [...EXCHANGE_NAMES] }, example: ['binance', 'okx'],
    description: 'opportunity: buy AND sell exchange among these; funding and feed: only these exchanges',
  })
  exchanges?: string[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'string' }, example: ['BTC-USDT'], description: 'opportunity and funding: only these tickers (at most 100)' })
  tickers?: string[];

  @ApiPropertyOptional({ type: Number, minimum: 10, maximum: 10000000, example: 5000, description: 'opportunity: USDT to price the route\'s depth at (the event\'s size); default the reference notional' })
  size?: number;

  @ApiPropertyOptional({
    type: Number, minimum: 0, maximum: 10000000, example: 2000,
    description: 'opportunity: only routes whose size.maxSizeUsdt (depth at or above minNetProfit, 0 without one) is ≥ this; a route without known books does not pass',
  })
  minSize?: number;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 100000, example: 30, description: 'funding (required unless onIntervalChange is true): |aprPercent| ≥ this' })
  minAbsApr?: number;

  @ApiPropertyOptional({ type: Boolean, example: true, description: 'funding: also notify when a venue moves a perpetual to another funding interval (8 h to 4 h, …)' })
  onIntervalChange?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1440, example: 2, description: 'feed: notify when a feed is down for more than this many minutes (default 2), and on recovery' })
  minutes?: number;
}

/** Where a rule's notifications go. In answers every secret shows as `***` and its last 4 characters. */
export class AlertChannelDto {
  @ApiProperty({ enum: [...CHANNEL_TYPES], example: 'webhook' })
  type: string;

  @ApiPropertyOptional({
    type: String, example: 'https://example.com/hooks/arbitrage', description: 'webhook: URL receiving a JSON POST; https to public addresses only unless ALERT_TARGETS_ALLOW_PRIVATE=1',
  })
  url?: string;

  @ApiPropertyOptional({
    type: String, nullable: true, example: 'whsec_3f9a0c1d', description: 'webhook: HMAC-SHA256 key for X-Signature (1-256 characters); masked in answers',
  })
  secret?: string | null;

  @ApiPropertyOptional({ type: String, example: '123456789:AAE1x2y3z4w5v6u7t8s9r0qponmlkjihgf', description: 'telegram: bot token; masked in answers' })
  botToken?: string;

  @ApiPropertyOptional({ type: String, example: '-1001234567890', description: 'telegram: chat id (integer) or @channel name' })
  chatId?: string;

  @ApiPropertyOptional({
    type: String, example: 'https://discord.com/api/webhooks/1234/abcdefgh', description: 'discord: webhook URL (holds its token); masked in answers; held to the same target rules as a webhook url',
  })
  webhookUrl?: string;
}
