import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertChannel, AlertCondition, AlertKind } from './alert-rule.types.js';

/** A user's alert rule: what to watch, where to send it, and how often a route may notify. */
@Entity({ name: 'alert_rules' })
export class AlertRuleEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  kind: AlertKind;

  @Column({ type: 'jsonb' })
  condition: AlertCondition;

  /** Holds the channel's secrets: never returned or logged as stored (see alert-secrets.ts). */
  @Column({ type: 'jsonb' })
  channel: AlertChannel;

  @Column({ name: 'cooldown_seconds', type: 'integer' })
  cooldownSeconds: number;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** Why the service switched the rule off (its channel kept failing), null otherwise. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
