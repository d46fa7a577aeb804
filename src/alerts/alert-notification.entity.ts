import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ChannelType } from './alert-rule.types.js';
import type { AlertMessage } from './alert-message.js';

/** `blocked`: the target was refused before any connection (rules: outbound-targets). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'blocked'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One notification in the outbox; its id is the Idempotency-Key sent with every attempt. */
@Entity({ name: 'alert_outbox' })
export class AlertNotificationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'rule_id', type: 'uuid', nullable: true })
  ruleId: string | null;

  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'rule_name', type: 'text' })
  ruleName: string;

  @Column({ name: 'channel_type', type: 'text' })
  channelType: ChannelType;

  @Column({ type: 'text' })
  route: string;

  @Column({ type: 'jsonb' })
  message: AlertMessage;

  @Column({ type: 'text' })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
