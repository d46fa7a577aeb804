import pg from 'pg';

/** The database named by DATABASE_URL does not exist and could not be created. */
export class MissingDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingDatabaseError';
  }
}

const UNDEFINED_DATABASE = '3D000';
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A PostgreSQL server that answers but lacks the database DATABASE_URL names: the service creates
 * it when its user may (as `createdb` would), else stops with one line naming the database and the
 * command to create it. Any other connect failure is left to the pool, which retries and reports.
 * Answers the name of a database it created, else null.
 */
export async function ensurePostgresDatabase(url: string): Promise<string | null> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  if (!(await isMissing(url))) return null;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    return name;
  } catch {
    const user = decodeURIComponent(target.username) || 'postgres';
    const port = target.port || '5432';
    throw new MissingDatabaseError(
      `Database "${name}" does not exist on ${target.hostname}:${port} and user "${user}" may not create it; ` +
        `create it with: createdb -h ${target.hostname} -p ${port} -U <a user allowed to> ${name}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function isMissing(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    return false;
  } catch (error) {
    return (error as { code?: string }).code === UNDEFINED_DATABASE;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
