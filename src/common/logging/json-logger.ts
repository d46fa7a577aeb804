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
    // Nest's own error(message, stack, context) passes a stack: it is not written (rules: logs).
    if (isErrorRecord(fields.error)) fields.error = { name: fields.error.name, message: fields.error.message };
    const record: LogRecord = { level, time: new Date().toISOString(), context, requestId: currentRequestId(), ...fields };
    this.write(this.format === 'pretty' ? prettyLine(record) : `${JSON.stringify(record)}\n`);
  }
}

/** An Error logged as the message keeps its name and message (JSON.stringify drops them). */
function fieldsOf(message: unknown): Record<string, unknown> {
  if (message instanceof Error) return { msg: cleanText(message.message), error: errorFields(message) };
  if (typeof message === 'object' && message !== null) return { ...(message as Record<string, unknown>) };
  return { msg: String(message) };
}

function isErrorRecord(value: unknown): value is { name: unknown; message: unknown; stack: unknown } {
  return typeof value === 'object' && value !== null && 'stack' in value;
}

/** Longest error text a log line keeps. */
const MAX_ERROR_CHARS = 300;
/**
 * An absolute file path of two or more segments (`/srv/app/dist/x.js`, `C:/x/y`) standing on its
 * own: a URL's path follows its host, so it is kept.
 */
const FILE_PATH = /(?<![\w.:/-])(?:[A-Za-z]:)?(?:\/[^\s'"/:]+){2,}/g;

/** An error text as a log line may carry it: file paths replaced, length bounded (rules: logs). */
export function cleanText(text: string): string {
  const cleaned = text.replace(FILE_PATH, '<path>');
  return cleaned.length > MAX_ERROR_CHARS ? `${cleaned.slice(0, MAX_ERROR_CHARS)}…` : cleaned;
}

/**
 * What a log record keeps of a thrown value: an Error's class and message, else its text; never a
 * stack (it names the files of the deployment), with paths taken out of the message.
 */
export function errorFields(error: unknown): { name: string; message: string } | string {
  return error instanceof Error ? { name: error.name, message: cleanText(error.message) } : cleanText(String(error));
}
