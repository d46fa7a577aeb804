import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Keyring } from '../common/secrets/secret-box.js';
import { SECRETS_KEYRING } from '../common/secrets/secrets.module.js';
import { openedChannel, type StoredChannel } from './alert-secrets.js';
import type { FiringMemory } from './alert-firing.engine.js';
import type { AlertMessage } from './alert-message.js';
import type { AlertChannel, ChannelType } from './alert-rule.types.js';

/** One decision to notify: the new cool-down memory of (rule, route) and the message to send. */
export interface Firing {
  ruleId: string;
  email: string;
  ruleName: string;
  channelType: ChannelType;
  route: string;
  memory: FiringMemory;
  message: AlertMessage;
}

/** A notification the sender has claimed, with its rule's current channel (null: the rule is gone). */
export interface ClaimedNotification {
  id: string;
  ruleId: string | null;
  createdAt: number;
  attempts: number;
  channelType: ChannelType;
  message: AlertMessage;
  channel: AlertChannel | null;
}

interface ClaimRow {
  id: string;
  rule_id: string | null;
  created_at: Date;
  attempts: number;
  channel_type: ChannelType;
  message: AlertMessage;
  channel: StoredChannel | null;
}

/**
 * The alert tables' SQL. A firing's memory and its notification are written in ONE transaction:
 * after a crash either both exist or neither. Claims use SKIP LOCKED and a claim deadline, so two
 * senders never take the same notification, and one that died mid-send frees it when the deadline passes.
 */
@Injectable()
export class AlertOutboxRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(SECRETS_KEYRING) private readonly keyring: Keyring,
  ) {}

  async loadMemories(): Promise<Map<string, FiringMemory>> {
    const rows = await this.db.query<{ rule_id: string; route: string; notified_at: Date; value: number; episode: string }[]>(
      'SELECT rule_id, route, notified_at, value, episode FROM alert_firings',
    );
    return new Map(rows.map((r) => [memoryKey(r.rule_id, r.route), { notifiedAt: r.notified_at.getTime(), value: Number(r.value), episode: r.episode }]));
  }

  /**
   * Records firings with their notifications, in one transaction of two statements whatever their
   * number (the rows travel as one JSON parameter). A batch holds each (rule, route) at most once.
   */
  async record(firings: readonly Firing[], now: number): Promise<string[]> {
    if (firings.length === 0) return [];
    const ids = firings.map(() => randomUUID());
    const memories = firings.map((f) => ({
      rule_id: f.ruleId, route: f.route, notified_at: new Date(f.memory.notifiedAt).toISOString(), value: f.memory.value, episode: f.memory.episode,
    }));
    const rows = firings.map((f, i) => ({
      id: ids[i], rule_id: f.ruleId, email: f.email, rule_name: f.ruleName, channel_type: f.channelType, route: f.route, message: f.message,
    }));
    await this.db.transaction(async (m) => {
      await m.query(
        `INSERT INTO alert_firings (rule_id, route, notified_at, value, episode)
         SELECT rule_id, route, notified_at, value, episode
         FROM jsonb_to_recordset($1::jsonb) AS t(rule_id uuid, route text, notified_at timestamptz, value float8, episode text)
         ON CONFLICT (rule_id, route) DO UPDATE SET notified_at = EXCLUDED.notified_at, value = EXCLUDED.value, episode = EXCLUDED.episode`,
        [JSON.stringify(memories)],
      );
      await m.query(
        `INSERT INTO alert_outbox (id, rule_id, email, rule_name, channel_type, route, message, created_at, next_attempt_at)
         SELECT id, rule_id, email, rule_name, channel_type, route, message, $2, $2
         FROM jsonb_to_recordset($1::jsonb) AS t(id uuid, rule_id uuid, email text, rule_name text, channel_type text, route text, message jsonb)`,
        [JSON.stringify(rows), new Date(now)],
      );
    });
    return ids;
  }

  /** Takes up to `limit` due notifications until `now + claimMs`, with their rules' channels opened for sending. */
  async claim(now: number, limit: number, claimMs: number): Promise<ClaimedNotification[]> {
    const rows = await this.db.query<ClaimRow[]>(
      `WITH due AS (
         SELECT id FROM alert_outbox
         WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
         ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE alert_outbox o SET claimed_until = $3 FROM due WHERE o.id = due.id
         RETURNING o.id, o.rule_id, o.created_at, o.attempts, o.channel_type, o.message
       )
       SELECT c.id, c.rule_id, c.created_at, c.attempts, c.channel_type, c.message, r.channel
       FROM claimed c LEFT JOIN alert_rules r ON r.id = c.rule_id`,
      [new Date(now), limit, new Date(now + claimMs)],
    );
    return rows.map((r) => ({
      id: r.id, ruleId: r.rule_id, createdAt: r.created_at.getTime(), attempts: r.attempts, channelType: r.channel_type, message: r.message,
      channel: r.channel === null ? null : openedChannel(r.channel, this.keyring),
    }));
  }

  /** Marks notifications delivered, in one statement. */
  async delivered(ids: readonly string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE alert_outbox SET status = 'delivered', attempts = attempts + 1, delivered_at = $2, claimed_until = NULL, last_error = NULL
       WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
      [JSON.stringify(ids), new Date(now)],
    );
  }

  async retryLater(id: string, error: string, nextAttemptAt: number): Promise<void> {
    await this.db.query(
      `UPDATE alert_outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3, claimed_until = NULL WHERE id = $1`,
      [id, error, new Date(nextAttemptAt)],
    );
  }

  /** Gives up on a notification; with a rule, disables it and says why, in one transaction. */
  async failed(id: string, ruleId: string | null, error: string, disabledReason: string | null): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(
        `UPDATE alert_outbox SET status = 'failed', attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1`,
        [id, error],
      );
      if (ruleId !== null && disabledReason !== null) {
        await m.query('UPDATE alert_rules SET enabled = false, disabled_reason = $2 WHERE id = $1', [ruleId, disabledReason]);
      }
    });
  }

  /** A notification whose target was refused before any connection (rules: outbound-targets): final, never retried. */
  async blocked(id: string, error: string): Promise<void> {
    await this.db.query(
      `UPDATE alert_outbox SET status = 'blocked', attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1`,
      [id, error],
    );
  }
}

export const memoryKey = (ruleId: string, route: string): string => `${ruleId}|${route}`;
