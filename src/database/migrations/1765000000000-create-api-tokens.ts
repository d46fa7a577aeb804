import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bearer tokens (AUTH_MODE=token). A token is 256 random bits; the table keeps its first 12
 * characters (to find the row) and a salted scrypt hash of the whole, never the token, so a stolen
 * table opens nothing. A token is bound to one e-mail; revoking keeps the row so
 * `npm run token -- list` shows what existed.
 */
export class CreateApiTokens1765000000000 implements MigrationInterface {
  name = 'CreateApiTokens1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_tokens (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text,
        token_lookup text NOT NULL,
        token_salt text NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        CONSTRAINT api_tokens_pkey PRIMARY KEY (id),
        CONSTRAINT api_tokens_token_lookup_key UNIQUE (token_lookup)
      )`);
    await q.query(`CREATE INDEX api_tokens_email ON api_tokens (email)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_tokens`);
  }
}
