import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lookers (rules: lookers). The cryptos of one looker live in a text[] column: they are always
 * read and written together, in order, and never queried one by one. The (email, created_at)
 * index serves the owner's newest-first listing.
 */
export class CreateLookers1764210000000 implements MigrationInterface {
  name = 'CreateLookers1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lookers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text,
        cryptos text[] NOT NULL DEFAULT '{}',
        exchange text NOT NULL,
        market text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT lookers_market_check CHECK (market IN ('SPOT', 'FUTURES')),
        CONSTRAINT lookers_cryptos_max_check CHECK (cardinality(cryptos) <= 6)
      )`);
    await q.query(`CREATE INDEX lookers_email_created_idx ON lookers (email, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE lookers`);
  }
}
