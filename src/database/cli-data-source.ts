import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadKeyring } from '../common/secrets/key-source.js';
import { loadConfig } from '../config/validate-env.js';
import { dataSourceOptions } from './database-options.js';

/** The DataSource the TypeORM migration CLI uses (`npm run migration:run`). */
const config = loadConfig();
// The migrations that seal or open stored secrets need the key the service uses (rules: sealed-secrets).
export default new DataSource({ ...dataSourceOptions(config.database, [], undefined, loadKeyring(config.secrets).keyring), migrationsRun: false });
