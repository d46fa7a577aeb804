import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calculator entries (rules: calculator). The UNIQUE (email, ticker) constraint is what makes the save an
 * upsert that concurrent requests cannot turn into two rows (INSERT … ON CONFLICT DO UPDATE).
 * Totals and spreads are derived from the four stored numbers on read, so they can never
 * disagree with them. The constraint's index also serves the per-user list; the second index
 * orders it newest first without a sort.
 */
export class CreateCalculators1764150000000 implements MigrationInterface {
  name = 'CreateCalculators1764150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calculators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        ticker text NOT NULL,
        entry_spot_value double precision NOT NULL CHECK (entry_spot_value > 0),
        entry_short_value double precision NOT NULL CHECK (entry_short_value > 0),
        entry_spot_qty double precision NOT NULL CHECK (entry_spot_qty > 0),
        entry_futures_qty double precision NOT NULL CHECK (entry_futures_qty > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT calculators_email_ticker_key UNIQUE (email, ticker)
      )`);
    await q.query(`CREATE INDEX calculators_email_created_idx ON calculators (email, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE calculators`);
  }
}
