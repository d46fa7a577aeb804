import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.js';
import { dataSourceOptions } from './database-options.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.database),
        autoLoadEntities: true,
        // A server may still be starting, so PostgreSQL is retried; the embedded database is a
        // folder: a retry cannot fix it, and the start fails at once with the reason.
        retryAttempts: config.database.kind === 'pglite' ? 0 : 10,
      }),
    }),
  ],
})
export class DatabaseModule {}
