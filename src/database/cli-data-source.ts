import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/validate-env.js';
import { dataSourceOptions } from './database-options.js';

/** The DataSource the TypeORM migration CLI uses (`npm run migration:run`). */
export default new DataSource({ ...dataSourceOptions(loadConfig().database), migrationsRun: false });
