import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { CHANNEL_TYPES } from '../alert-rule.types.js';
import type { AlertNotificationEntity } from '../alert-notification.entity.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../alert-notification.entity.js';

/** One notification and how its delivery went. */
export class AlertDeliveryDto {
  @ApiField.uuid({ description: 'The notification id, sent as Idempotency-Key on every attempt' })
  id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '5b0f6a7e-8a53-4b8e-9f3e-0d5c3f3b2a11', description: 'null once the rule was deleted' })
  ruleId: string | null;

  @ApiField.string({ example: 'BTC majors above 0.3 %' })
  ruleName: string;

  @ApiField.enum(CHANNEL_TYPES)
  channel: string;

  @ApiField.string({ example: 'BTC-USDT binance->okx', description: 'What fired: a route, a (ticker, exchange) or an exchange' })
  route: string;

  @ApiField.string({ example: 'BTC-USDT: buy on binance at 64000.1, sell on okx at 64150.5. Gross 0.235%, …' })
  text: string;

  @ApiField.enum(DELIVERY_STATUSES, {
    description: 'pending (being retried), delivered, failed (gave up after 24 h, or the rule is gone), blocked (the target resolved to a non-public address or was not https: no connection made, not retried)',
  })
  status: DeliveryStatus;

  @ApiField.integer({ example: 1 })
  attempts: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'HTTP 500',
    description: "The last failure by kind, without secrets nor the target's answer: `HTTP <code>` (a 3xx adds `: redirect not followed`), `refused`, `timed out`, `DNS: not found`, `blocked: target …`; says when the rule was disabled",
  })
  lastError: string | null;

  @ApiField.dateTime({ description: 'When the rule fired' })
  firedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-03-01T12:00:00.350Z' })
  deliveredAt: string | null;

  static from(e: AlertNotificationEntity): AlertDeliveryDto {
    return {
      id: e.id,
      ruleId: e.ruleId,
      ruleName: e.ruleName,
      channel: e.channelType,
      route: e.route,
      text: e.message.text,
      status: e.status,
      attempts: e.attempts,
      lastError: e.lastError,
      firedAt: e.createdAt.toISOString(),
      deliveredAt: e.deliveredAt?.toISOString() ?? null,
    };
  }
}
