import type { LogRecord } from './json-logger.js';

const RESET = '\u001b[0m';
const DIM = '\u001b[2m';
const LEVEL_STYLE: Record<string, string> = {
  debug: '\u001b[90m', // grey
  info: '\u001b[32m', // green
  warn: '\u001b[33m', // yellow
  error: '\u001b[31m', // red
};
const STATUS_STYLE = (status: number): string => (status >= 500 ? '\u001b[31m' : status >= 400 ? '\u001b[33m' : '\u001b[32m');
const SHOWN = new Set(['level', 'time', 'context', 'requestId', 'msg', 'error']);

/**
 * One log record as a person reads it at a terminal: clock time, coloured level, context, the
 * message, the other fields as key=value, the request id last; an access-log record is one line
 * `GET /path 200 3.1 ms`; an error shows its class and message, never a stack.
 */
export function prettyLine(record: LogRecord): string {
  const style = LEVEL_STYLE[record.level] ?? '';
  const head = `${DIM}${record.time.slice(11, 23)}${RESET} ${style}${record.level.toUpperCase().padEnd(5)}${RESET}`;
  const context = record.context ? ` ${DIM}[${record.context}]${RESET}` : '';
  const body = isAccessRecord(record) ? accessText(record) : genericText(record);
  const id = record.requestId ? ` ${DIM}req=${record.requestId}${RESET}` : '';
  return `${head}${context} ${body}${id}\n`;
}

function isAccessRecord(r: LogRecord): r is LogRecord & { method: string; path: string; status: number; ms: number } {
  return r.msg === 'request' && typeof r.method === 'string' && typeof r.status === 'number';
}

function accessText(r: { method: string; path: string; status: number; ms: number }): string {
  return `${r.method} ${r.path} ${STATUS_STYLE(r.status)}${r.status}${RESET} ${r.ms} ms`;
}

function genericText(record: LogRecord): string {
  const extra = Object.entries(record)
    .filter(([key, value]) => !SHOWN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const error = record.error as { message?: unknown } | undefined;
  const cause = error && typeof error.message === 'string' && error.message !== record.msg ? `: ${error.message}` : '';
  const msg = typeof record.msg === 'string' ? record.msg : JSON.stringify(record.msg ?? '');
  return [`${msg}${cause}`, ...extra].join(' ');
}
