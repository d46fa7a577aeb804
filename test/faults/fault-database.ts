import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createPostgresTestDatabase } from '../utils/test-database.js';

/**
 * The database a fault test's service process runs on: with DATABASE_URL (npm run test:pg) a fresh
 * PostgreSQL database, otherwise an embedded database in a folder of its own, as a user runs it.
 */
export interface FaultDatabase {
  readonly kind: 'postgres' | 'pglite';
  readonly env: Record<string, string>;
  /** SQL straight on the database; for the embedded one only while no service has it open. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export async function faultDatabase(kind: 'postgres' | 'pglite' = process.env.DATABASE_URL ? 'postgres' : 'pglite'): Promise<FaultDatabase> {
  return kind === 'postgres' ? postgresDatabase() : embeddedDatabase();
}

/** PostgreSQL always: the test's server when test:pg gives one, else the CI machine's own. */
export async function postgresDatabase(): Promise<FaultDatabase> {
  const db = await createPostgresTestDatabase();
  const url = db.env.DATABASE_URL as string;
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url },
    query: async <T>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    drop: () => db.drop(),
  };
}

function embeddedDatabase(): FaultDatabase {
  const folder = mkdtempSync(path.join(tmpdir(), 'am-fault-'));
  const dataDir = path.join(folder, 'db');
  return {
    kind: 'pglite',
    env: { DB_PATH: dataDir },
    query: async <T>(sql: string, params: unknown[] = []) => {
      const db = await PGlite.create(dataDir);
      try {
        return (await db.query<T>(sql, params)).rows;
      } finally {
        await db.close();
      }
    },
    drop: () => Promise.resolve(rmSync(folder, { recursive: true, force: true })),
  };
}
