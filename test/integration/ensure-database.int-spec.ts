import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePostgresDatabase, MissingDatabaseError } from '../../src/database/ensure-database.js';
import { runServiceToExit } from '../utils/service-process.js';
import { LOCAL_POSTGRES } from '../utils/test-database.js';

/**
 * A DATABASE_URL naming a database the server lacks: created when the URL's user may, else one
 * line naming it and the command to create it (it used to be ten stack traces over 30 s).
 * On a real server: DATABASE_URL's when set, else the local one; runs in one database pass only.
 */
const server = new URL(process.env.DATABASE_URL ?? LOCAL_POSTGRES);
const suffix = randomBytes(4).toString('hex');
const missing = `newcomer_${suffix}`;
const role = `no_createdb_${suffix}`;
const urlFor = (user: string, database: string): string => {
  const url = new URL(server.toString());
  url.username = user;
  url.pathname = `/${database}`;
  return url.toString();
};

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor(server.username || 'postgres', 'postgres') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe('a DATABASE_URL whose database does not exist', () => {
  beforeAll(async () => {
    await admin((c) => c.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`));
  });
  afterAll(async () => {
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${missing} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${role}`);
    });
  });

  it('is created when the user may create databases, and left alone when it exists', async () => {
    const url = urlFor(server.username || 'postgres', missing);
    expect(await ensurePostgresDatabase(url)).toBe(missing);
    expect(await admin((c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [missing]))).toMatchObject({ rowCount: 1 });
    expect(await ensurePostgresDatabase(url)).toBeNull();
  });

  it('otherwise stops the service with one line naming the database and the command to create it', async () => {
    const url = urlFor(role, `other_${suffix}`);
    await expect(ensurePostgresDatabase(url)).rejects.toBeInstanceOf(MissingDatabaseError);
    const { code, output } = await runServiceToExit({ DATABASE_URL: url, LOG_FORMAT: 'json' });
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Database "other_${suffix}" does not exist`);
    expect(lines[0]).toContain(`createdb -h ${server.hostname}`);
    expect(output).not.toMatch(/\n\s+at /);
  }, 90_000);
});
