import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import type { Keyring } from '../common/secrets/secret-box.js';
import { migrationsWith } from './migrations/index.js';
import { createPgliteDriver } from './pglite-driver.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/** How the PostgreSQL pool waits: for a server to answer a connect, and for a free connection. */
export interface PoolTimings {
  poolSize: number;
  /** A server that does not answer (not even a refusal) fails a connect after this long. */
  connectTimeoutMs: number;
  /** A request queued behind a busy pool gives up after this long. */
  poolWaitMs: number;
}

/**
 * 5 s to connect, so requests answer their 500 texts instead of hanging while the server is
 * unreachable; a minute in the pool's queue, so a burst of heavy requests is served late rather
 * than failed (node-postgres's one `connectionTimeoutMillis` bounds both, and at 5 s a burst of
 * 550 requests failed about 190 of them), while requests still cannot pile up without end
 * behind connections that hang.
 */
export const POOL_TIMINGS: PoolTimings = { poolSize: 10, connectTimeoutMs: 5_000, poolWaitMs: 60_000 };

/**
 * One dialect, one set of migrations: PostgreSQL when DATABASE_URL is set, else embedded
 * PGlite behind TypeORM's postgres driver (rules: operating). Migrations run at start; never synchronize.
 * The keyring lets the migrations that seal stored secrets do so (rules: sealed-secrets).
 */
export function dataSourceOptions(
  db: DatabaseConfig,
  entities: DataSourceOptions['entities'] = [],
  timings: PoolTimings = POOL_TIMINGS,
  keyring: Keyring | null = null,
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: migrationsWith(keyring),
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    // gen_random_uuid() is core since PostgreSQL 13; no extension is needed on either engine.
    installExtensions: false,
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 2000,
  };
  switch (db.kind) {
    case 'postgres':
      return {
        ...common,
        url: db.url,
        poolSize: timings.poolSize,
        // TypeORM hands this to the pool as connectionTimeoutMillis: the wait for a free connection.
        connectTimeoutMS: timings.poolWaitMs,
        extra: { Client: clientWithConnectTimeout(timings.connectTimeoutMs) },
      };
    case 'pglite':
      return { ...common, driver: createPgliteDriver(db.path), database: 'postgres' };
  }
}

/**
 * The pool gives each new client its own options; this client replaces the pool's wait with
 * its own, shorter, connect timeout (pg.Client ends a connect that takes longer).
 */
function clientWithConnectTimeout(connectTimeoutMs: number): typeof pg.Client {
  return class ConnectTimeoutClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}
