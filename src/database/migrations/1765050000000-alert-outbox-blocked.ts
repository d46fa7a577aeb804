import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery may end `blocked` (rules: outbound-targets): its target was refused before any
 * connection, and it is not retried. Going back, a blocked delivery reads as failed, the closest
 * of the earlier statuses (it is final too).
 */
export class AlertOutboxBlocked1765050000000 implements MigrationInterface {
  name = 'AlertOutboxBlocked1765050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE alert_outbox DROP CONSTRAINT alert_outbox_status_check');
    await q.query(`ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_status_check CHECK (status IN ('pending', 'delivered', 'failed', 'blocked'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE alert_outbox SET status = 'failed' WHERE status = 'blocked'`);
    await q.query('ALTER TABLE alert_outbox DROP CONSTRAINT alert_outbox_status_check');
    await q.query(`ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_status_check CHECK (status IN ('pending', 'delivered', 'failed'))`);
  }
}
