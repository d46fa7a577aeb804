import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { MIGRATIONS } from './migrations/index.js';
import { createPgliteDriver } from './pglite-driver.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/**
 * One dialect, one set of migrations: PostgreSQL when DATABASE_URL is set, else embedded
 * PGlite behind TypeORM's postgres driver (D12). Migrations run at start; never synchronize.
 */
export function dataSourceOptions(db: DatabaseConfig, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
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
      // A server that does not answer (not even a refusal) fails a connect after 5 s, so requests
      // answer their 500 texts instead of hanging while it is unreachable.
      return { ...common, url: db.url, poolSize: 10, connectTimeoutMS: 5_000 };
    case 'pglite':
      return { ...common, driver: createPgliteDriver(db.path), database: 'postgres' };
  }
}
