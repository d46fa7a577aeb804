import express, { type RequestHandler } from 'express';
import { IMPORT_MAX_BYTES, NDJSON } from './import-rows.js';

export const HISTORY_IMPORT_PATH = '/v1/opportunity-history/import';

/**
 * The import's own body parsers (rules: history-import; JSON array or NDJSON, up to 64 MiB). Mounted on the
 * import path before the global 1 MiB JSON parser, which then sees the body already read and
 * leaves it alone; every other route keeps the 1 MiB limit (rules: errors).
 */
export function historyImportBodyParsers(): RequestHandler[] {
  return [
    express.json({ limit: IMPORT_MAX_BYTES }),
    express.text({ type: NDJSON, limit: IMPORT_MAX_BYTES }),
  ];
}
