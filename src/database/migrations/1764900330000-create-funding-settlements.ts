import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settled funding (one row per payment of a perpetual) and the funding-interval changes seen.
 * A payment's identity is (exchange, ticker, settled_at): the venue's history and the
 * collector's own observation of the same payment meet on it, the venue's figures winning.
 * Rates are numeric so that what the venue printed is kept digit for digit.
 */
export class CreateFundingSettlements1764900330000 implements MigrationInterface {
  name = 'CreateFundingSettlements1764900330000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE funding_settlements (
        exchange text NOT NULL,
        ticker text NOT NULL,
        settled_at timestamptz NOT NULL,
        rate numeric NOT NULL,
        interval_hours numeric NOT NULL CHECK (interval_hours > 0),
        mark_price numeric CHECK (mark_price > 0),
        source text NOT NULL CHECK (source IN ('venue', 'observed')),
        CONSTRAINT funding_settlements_pkey PRIMARY KEY (exchange, ticker, settled_at)
      )`);
    await q.query(`CREATE INDEX funding_settlements_settled_at ON funding_settlements (settled_at)`);
    await q.query(`
      CREATE TABLE funding_interval_changes (
        exchange text NOT NULL,
        ticker text NOT NULL,
        changed_at timestamptz NOT NULL,
        from_hours numeric NOT NULL CHECK (from_hours > 0),
        to_hours numeric NOT NULL CHECK (to_hours > 0),
        CONSTRAINT funding_interval_changes_pkey PRIMARY KEY (exchange, ticker, changed_at)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE funding_interval_changes`);
    await q.query(`DROP TABLE funding_settlements`);
  }
}
