import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLoggerContract } from 'typeorm';
import { errorFields } from '../common/logging/json-logger.js';

/**
 * What a log line says of a statement: its verb and the first table it names, never its text
 * (SQL names columns and may carry literals; rules: logs).
 */
export function statementOf(query: string): string {
  const verb = /^\s*(\w+)/.exec(query)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(?:from|into|update|table)\s+("?[\w.]+"?)/i.exec(query)?.[1]?.replaceAll('"', '');
  return table ? `${verb} ${table}` : verb;
}

/** Routes TypeORM's own messages into the service's structured logs. */
export class TypeOrmLogger implements TypeOrmLoggerContract {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  /**
   * Debug only: a failed query is either expected (a unique violation the service turns into a
   * 409) or reaches the exception filter, which logs it once with its request id.
   */
  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ msg: 'query failed', statement: statementOf(query), error: errorFields(error) });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ msg: 'slow query', ms: time, statement: statementOf(query) });
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
