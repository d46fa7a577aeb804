import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Journal operations (rules: journal). Prices and amounts are double precision so they arrive as JS
 * numbers from both PostgreSQL and PGlite. gross_pnl and net_pnl are written by the service
 * (the PnL engine) on every write, so the summary can sum them in SQL.
 */
export class CreateJournalOperations1764400000000 implements MigrationInterface {
  name = 'CreateJournalOperations1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE journal_operations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'closed')),
        strategy text NOT NULL CHECK (strategy IN ('spot_futures', 'cross_exchange', 'funding', 'other')),
        asset text NOT NULL,
        buy_exchange text NOT NULL,
        sell_exchange text NOT NULL,
        quantity double precision NOT NULL DEFAULT 0 CHECK (quantity >= 0),
        short_quantity double precision NOT NULL DEFAULT 0 CHECK (short_quantity >= 0),
        entry_buy_price double precision,
        entry_sell_price double precision,
        exit_buy_price double precision,
        exit_sell_price double precision,
        trading_fees double precision NOT NULL DEFAULT 0,
        withdrawal_fees double precision NOT NULL DEFAULT 0,
        funding double precision NOT NULL DEFAULT 0,
        fees_estimated boolean NOT NULL DEFAULT false,
        gross_pnl double precision,
        net_pnl double precision,
        opened_at timestamptz NOT NULL,
        closed_at timestamptz,
        source text NOT NULL DEFAULT 'manual',
        external_id text,
        notes text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT journal_operations_closed_at_check CHECK ((status = 'closed') = (closed_at IS NOT NULL))
      )`);
    // Listing and export: newest first by opened_at, then id (keyset pagination of the export).
    await q.query(`CREATE INDEX journal_operations_email_opened_idx ON journal_operations (email, opened_at DESC, id)`);
    // Summary: closed operations of one user in a closedAt range.
    await q.query(
      `CREATE INDEX journal_operations_email_closed_idx ON journal_operations (email, closed_at) WHERE status = 'closed'`,
    );
    // Summary's openOperations count.
    await q.query(`CREATE INDEX journal_operations_email_open_idx ON journal_operations (email) WHERE status = 'open'`);
    await q.query(`
      CREATE UNIQUE INDEX journal_operations_external_id_key
        ON journal_operations (email, source, external_id) WHERE external_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE journal_operations`);
  }
}
