import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts: a user's rules, what each rule last notified per route (its cool-down memory), and the
 * outbox of notifications. A firing updates `alert_firings` and inserts into `alert_outbox` in one
 * transaction, so a notification exists exactly when its firing was recorded. The outbox id is the
 * notification's idempotency key. The partial index serves the sender's "due now" scan.
 */
export class CreateAlerts1764900000000 implements MigrationInterface {
  name = 'CreateAlerts1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alert_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL,
        kind text NOT NULL,
        condition jsonb NOT NULL,
        channel jsonb NOT NULL,
        cooldown_seconds integer NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT alert_rules_kind_check CHECK (kind IN ('opportunity', 'funding', 'feed')),
        CONSTRAINT alert_rules_cooldown_check CHECK (cooldown_seconds BETWEEN 10 AND 86400)
      )`);
    await q.query(`CREATE INDEX alert_rules_email_created_idx ON alert_rules (email, created_at DESC)`);
    await q.query(`
      CREATE TABLE alert_firings (
        rule_id uuid NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
        route text NOT NULL,
        notified_at timestamptz NOT NULL,
        value double precision NOT NULL,
        episode text NOT NULL,
        PRIMARY KEY (rule_id, route)
      )`);
    await q.query(`
      CREATE TABLE alert_outbox (
        id uuid PRIMARY KEY,
        rule_id uuid REFERENCES alert_rules (id) ON DELETE SET NULL,
        email text NOT NULL,
        rule_name text NOT NULL,
        channel_type text NOT NULL,
        route text NOT NULL,
        message jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        claimed_until timestamptz,
        delivered_at timestamptz,
        CONSTRAINT alert_outbox_status_check CHECK (status IN ('pending', 'delivered', 'failed'))
      )`);
    await q.query(`CREATE INDEX alert_outbox_due_idx ON alert_outbox (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX alert_outbox_email_created_idx ON alert_outbox (email, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_outbox`);
    await q.query(`DROP TABLE alert_firings`);
    await q.query(`DROP TABLE alert_rules`);
  }
}
