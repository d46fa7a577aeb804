import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The database of one test file. With DATABASE_URL set (npm run test:pg) each file gets a fresh
 * PostgreSQL database on that server, dropped afterwards; otherwise an in-memory PGlite.
 */
export interface TestDatabase {
  env: Record<string, string | undefined>;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { env: { DATABASE_URL: undefined, DB_PATH: ':memory:' }, drop: async () => {} };
  return createPostgresTestDatabase(serverUrl);
}

/** The local server, for tests that need PostgreSQL whichever engine the suite runs on. */
export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database on a PostgreSQL server (DATABASE_URL when set, else the local one), dropped by `drop()`. */
export async function createPostgresTestDatabase(serverUrl = process.env.DATABASE_URL ?? LOCAL_POSTGRES): Promise<TestDatabase> {
  const name = `am_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // The database's own secrets key file, so a test never writes one into the working directory.
  const keyFile = path.join(os.tmpdir(), `${name}.secrets.key`);
  return {
    env: { DATABASE_URL: url.toString(), SECRETS_KEY_FILE: keyFile },
    drop: async () => {
      await withAdmin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      fs.rmSync(keyFile, { force: true });
    },
  };
}

async function withAdmin(url: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

export const onPostgres = (): boolean => Boolean(process.env.DATABASE_URL);
