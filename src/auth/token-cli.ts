import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadKeyring } from '../common/secrets/key-source.js';
import { loadConfig } from '../config/validate-env.js';
import { dataSourceOptions } from '../database/database-options.js';
import { ApiTokenEntity } from './api-token.entity.js';
import { ApiTokenStore } from './api-token-store.js';
import { tokenCommand } from './token-command.js';

/**
 * `npm run token -- create|list|revoke` (built: `node dist/auth/token-cli.js ...`), against the
 * database the service uses (DATABASE_URL, or the embedded folder DB_PATH, which one process
 * opens at a time: stop the service first). Migrations run first, as at service start.
 */
// The migration runner's progress lines would bury the one line an operator needs.
Logger.overrideLogger(['error', 'warn']);
const config = loadConfig();
// Migrations run first, and those that seal stored secrets need the service's key.
const dataSource = new DataSource(dataSourceOptions(config.database, [ApiTokenEntity], undefined, loadKeyring(config.secrets).keyring));
await dataSource.initialize();
try {
  process.exitCode = await tokenCommand(
    process.argv.slice(2),
    new ApiTokenStore(dataSource.getRepository(ApiTokenEntity)),
    (line) => process.stdout.write(`${line}\n`),
    (line) => process.stderr.write(`${line}\n`),
  );
} finally {
  await dataSource.destroy();
}
