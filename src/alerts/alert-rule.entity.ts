import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { StoredChannel } from './alert-secrets.js';
import type { AlertCondition, AlertKind } from './alert-rule.types.js';

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

  /** The channel with its secret sealed (rules: sealed-secrets); opened only to send or to mask an answer. */
  @Column({ type: 'jsonb' })
  channel: StoredChannel;

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
