import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnreachableError, ensurePostgresDatabase, MissingDatabaseError } from '../../src/database/ensure-database.js';
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

/**
 * A server that cannot be used stops the start with one line, after a bounded wait: refused
 * (nothing listens), timed out (a listener that never answers), a user the server refuses (at once).
 */
describe('a PostgreSQL server the service cannot use', () => {
  const oneLine = (output: string): string => {
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(output).not.toMatch(/\n\s+at /);
    return lines[0] ?? '';
  };

  it('refused: tried for DATABASE_CONNECT_WAIT_MS, then one line naming host, port and what happened', async () => {
    const port = await closedPort();
    const started = Date.now();
    const { code, output } = await runServiceToExit({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`, DATABASE_CONNECT_WAIT_MS: '1500', LOG_FORMAT: 'json' });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(oneLine(output)).toBe(`Cannot reach PostgreSQL at 127.0.0.1:${port} (DATABASE_URL): connection refused, still after 1.5 s (DATABASE_CONNECT_WAIT_MS)`);
  }, 90_000);

  it('timed out: a listener that never answers', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await expect(ensurePostgresDatabase(`postgres://postgres@127.0.0.1:${port}/x`, 0)).rejects.toThrow(
        `Cannot reach PostgreSQL at 127.0.0.1:${port} (DATABASE_URL): timed out`,
      );
    } finally {
      silent.close();
    }
  }, 30_000);

  it('a user the server refuses: at once, whatever the wait', async () => {
    const url = urlFor(`nobody_${suffix}`, 'postgres');
    const started = Date.now();
    await expect(ensurePostgresDatabase(url, 60_000)).rejects.toBeInstanceOf(DatabaseUnreachableError);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(ensurePostgresDatabase(url, 0)).rejects.toThrow(`the server refused user "nobody_${suffix}"`);
  });
});

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
