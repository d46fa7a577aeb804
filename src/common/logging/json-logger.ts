import type { LoggerService } from '@nestjs/common';
import type { LogFormat, LogLevel } from '../../config/app-config.js';
import { currentRequestId } from './log-context.js';
import { prettyLine } from './pretty-line.js';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** One log record: level, time, context, then the caller's fields (`msg` first when given). */
export type LogRecord = { level: LogLevel; time: string; context?: string; requestId?: string } & Record<string, unknown>;

/**
 * The service's logger. JSON lines for machines (one object per line on stdout), or one short,
 * coloured line for a person at a terminal (`pretty`, the default when stdout is a TTY).
 * Every line written while a request is handled carries that request's id.
 */
export class JsonLogger implements LoggerService {
  private readonly format: 'json' | 'pretty';

  constructor(
    private readonly level: LogLevel,
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
    format: LogFormat = 'json',
    isTty: boolean = process.stdout.isTTY === true,
  ) {
    this.format = format === 'auto' ? (isTty ? 'pretty' : 'json') : format;
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.emit('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.emit('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.emit('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }

  private emit(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (RANK[level] < RANK[this.level]) return;
    // Nest passes the context as the last string argument.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const fields = fieldsOf(message);
    // Nest's own error(message, stack, context): keep the stack it passes beside the message.
    if (level === 'error' && rest.length >= 2 && typeof rest[0] === 'string' && fields.error === undefined) fields.error = { stack: rest[0] };
    const record: LogRecord = { level, time: new Date().toISOString(), context, requestId: currentRequestId(), ...fields };
    this.write(this.format === 'pretty' ? prettyLine(record) : `${JSON.stringify(record)}\n`);
  }
}

/** An Error logged as the message keeps its name, message and stack (JSON.stringify drops them). */
function fieldsOf(message: unknown): Record<string, unknown> {
  if (message instanceof Error) return { msg: message.message, error: errorFields(message) };
  if (typeof message === 'object' && message !== null) return { ...(message as Record<string, unknown>) };
  return { msg: String(message) };
}

/** What a log record keeps of a thrown value: an Error's name, message and stack, else its text. */
export function errorFields(error: unknown): { name: string; message: string; stack?: string } | string {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error);
}
