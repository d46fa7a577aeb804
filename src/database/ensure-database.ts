import pg from 'pg';

/** The database named by DATABASE_URL does not exist and could not be created. */
export class MissingDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingDatabaseError';
  }
}

/** The PostgreSQL server cannot be used: it does not answer, or it refuses the URL's user. */
export class DatabaseUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnreachableError';
  }
}

const UNDEFINED_DATABASE = '3D000';
/** invalid_authorization_specification (no such role, no pg_hba entry) and invalid_password. */
const AUTHENTICATION = new Set(['28000', '28P01']);
const CONNECT_TIMEOUT_MS = 5_000;
/** Between two tries while the server does not answer yet (a server still starting). */
const RETRY_MS = 500;

type Failure = 'refused' | 'timed out' | 'host not found' | 'authentication';

/** What kind of connect failure this is, or null for one the pool reports itself. */
export function connectFailureOf(error: unknown): Failure | null {
  const { code, message } = error as { code?: string; message?: string };
  if (code !== undefined && AUTHENTICATION.has(code)) return 'authentication';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ETIMEDOUT' || /timeout/i.test(message ?? '')) return 'timed out';
  return null;
}

/**
 * Before the pool opens (rules: operating): a server that does not answer is tried again for up to
 * `waitMs` (DATABASE_CONNECT_WAIT_MS), then the start stops with one line naming the host, the
 * port and what happened (refused, timed out, host not found); a refused user stops it at once.
 * A server that answers but lacks the database DATABASE_URL names: the service creates it when
 * its user may (as `createdb` would), else stops with one line naming the database and the
 * command to create it. Any other connect failure is left to the pool, which reports it.
 * Answers the name of a database it created, else null.
 */
export async function ensurePostgresDatabase(url: string, waitMs = 0): Promise<string | null> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  if (!(await isMissing(url, waitMs))) return null;
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

async function isMissing(url: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    try {
      await client.connect();
      return false;
    } catch (error) {
      if ((error as { code?: string }).code === UNDEFINED_DATABASE) return true;
      const failure = connectFailureOf(error);
      if (failure === null) return false;
      if (failure === 'authentication' || Date.now() + RETRY_MS > deadline) throw unreachable(url, failure, waitMs);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

function unreachable(url: string, failure: Failure, waitMs: number): DatabaseUnreachableError {
  const target = new URL(url);
  const where = `PostgreSQL at ${target.hostname}:${target.port || '5432'} (DATABASE_URL)`;
  if (failure === 'authentication') {
    const user = decodeURIComponent(target.username) || 'postgres';
    return new DatabaseUnreachableError(`Cannot use ${where}: the server refused user "${user}" (no such role, or a wrong password or pg_hba.conf rule)`);
  }
  const waited = waitMs > 0 ? `, still after ${waitMs / 1000} s (DATABASE_CONNECT_WAIT_MS)` : '';
  return new DatabaseUnreachableError(`Cannot reach ${where}: ${failure === 'refused' ? 'connection refused' : failure}${waited}`);
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
