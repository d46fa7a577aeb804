import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLoggerContract } from 'typeorm';

/** Routes TypeORM's own messages into the service's structured logs. */
export class TypeOrmLogger implements TypeOrmLoggerContract {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  /**
   * Debug only: a failed query is either expected (a unique violation the service turns into a
   * 409) or reaches the exception filter, which logs it once with its stack and request id.
   */
  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ msg: 'query failed', error: error instanceof Error ? error.message : error, query });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ msg: 'slow query', ms: time, query });
  }

  logSchemaBuild(message: string): void {
    this.logger.debug({ msg: message });
  }

  logMigration(message: string): void {
    this.logger.log({ msg: message });
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn({ msg: String(message) });
    else this.logger.log({ msg: String(message) });
  }
}
