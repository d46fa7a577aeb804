import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateFavoriteCryptos1763769600000 implements MigrationInterface {
  name = 'CreateFavoriteCryptos1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE favorite_cryptos (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        ticker text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT favorite_cryptos_email_ticker_key UNIQUE (email, ticker)
      )`);
    await q.query(`CREATE INDEX favorite_cryptos_email_created_idx ON favorite_cryptos (email, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE favorite_cryptos`);
  }
}
