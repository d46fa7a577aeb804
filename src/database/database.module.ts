import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { Keyring } from '../common/secrets/secret-box.js';
import { SECRETS_KEYRING } from '../common/secrets/secrets.module.js';
import { dataSourceOptions } from './database-options.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG, SECRETS_KEYRING],
      useFactory: (config: AppConfig, keyring: Keyring) => ({
        ...dataSourceOptions(config.database, [], undefined, keyring),
        autoLoadEntities: true,
        // A server may still be starting, so PostgreSQL is retried; the embedded database is a
        // folder: a retry cannot fix it, and the start fails at once with the reason.
        retryAttempts: config.database.kind === 'pglite' ? 0 : 10,
      }),
    }),
  ],
})
export class DatabaseModule {}
