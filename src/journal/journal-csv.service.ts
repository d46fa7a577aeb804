import { Injectable, Logger, UnsupportedMediaTypeException } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';
import { AppError } from '../common/errors/app-error.js';
import type { ImportErrorDto, ImportResultDto } from './dto/import-result.dto.js';
import { OperationDto } from './dto/operation.dto.js';
import type { OperationFiltersDto } from './dto/operation-query.dto.js';
import { CSV_HEADER, toCsvCells } from './journal-csv.js';
import { headerProblem, rowToFields } from './journal-import.js';
import { CsvReadError, csvRecordsWithLines } from './csv-lines.js';
import type { OperationFields, StoredOperation } from './journal-operation.entity.js';
import { type ExportCursor, JournalRepository } from './journal.repository.js';
import type { EntityManager } from 'typeorm';
import { readAhead } from '../common/async/read-ahead.js';
import { Slicer, takeTurn } from '../common/async/turns.js';
import { errorFields } from '../common/logging/json-logger.js';

/**
 * Keyset page size of the export; memory holds two pages whatever the row count. 500 rows are
 * about 100 KB of CSV, one string below V8's large-object size.
 */
export const EXPORT_PAGE_SIZE = 250;
/** Rows per INSERT … ON CONFLICT of the import (20 parameters each, far below 65,535). */
const IMPORT_BATCH = 500;

interface ImportState {
  email: string;
  manager: EntityManager;
  header?: string[];
  batch: OperationFields[];
  keys: Set<string>;
  result: ImportResultDto;
}

/** The journal's CSV export and import (rules: csv). */
@Injectable()
export class JournalCsvService {
  private readonly logger = new Logger('JournalCsv');

  constructor(private readonly operations: JournalRepository) {}

  /**
   * Streams every matching operation. The first page is read before any header is sent, so a
   * database failure is still a proper JSON 500. Each page becomes ONE CSV string, written once
   * the client has taken the previous one, while the next page is already being read. Writing a
   * string per row kept thousands of small strings and buffer entries in flight, and V8 promoted
   * them to its old generation: RSS grew by hundreds of megabytes over a million rows.
   */
  async export(query: OperationFiltersDto, res: Response): Promise<void> {
    const pageAfter = (cursor: ExportCursor | null): Promise<StoredOperation[]> =>
      readAhead(this.operations.exportPage(query.email, query, cursor, EXPORT_PAGE_SIZE));
    let page = await pageAfter(null);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="journal.csv"');
    try {
      if (!(await send(res, stringify([CSV_HEADER])))) return;
      for (;;) {
        const last = page.at(-1);
        const next = page.length === EXPORT_PAGE_SIZE && last ? pageAfter({ openedAt: last.openedAt, id: last.id }) : null;
        // A page is a few ms of formatting: one page per turn of the loop, however many exports run.
        await takeTurn();
        if (!(await send(res, stringify(page.map((op) => toCsvCells(OperationDto.from(op))))))) return;
        if (!next) break;
        page = await next;
      }
      res.end();
    } catch (err) {
      // The status line and part of the body are out: only a broken transfer can tell the client.
      this.logger.error({ msg: 'journal export failed after the first page', error: errorFields(err) });
      res.destroy();
    }
  }

  /**
   * Imports the CSV in one transaction: rows are parsed as a stream and written in batches, a
   * row that fails its checks is reported and writes nothing; a CSV that cannot be parsed at all
   * rolls everything back and is a 400.
   */
  async import(email: string, body: unknown): Promise<ImportResultDto> {
    if (typeof body !== 'string') throw new UnsupportedMediaTypeException('Content-Type must be text/csv');
    try {
      return await this.operations.transaction(async (manager) => {
        const state: ImportState = { email, manager, batch: [], keys: new Set(), result: { created: 0, updated: 0, errors: [] } };
        await this.readRows(body, state);
        if (!state.header) throw AppError.invalid(`CSV header must be: ${CSV_HEADER.join(',')}`);
        await this.flush(state);
        return state.result;
      });
    } catch (err) {
      if (err instanceof CsvReadError) throw AppError.invalid(`CSV could not be read: ${err.message}`);
      throw err;
    }
  }

  private async readRows(text: string, state: ImportState): Promise<void> {
    // Checking a row (class-transformer and class-validator) takes tens of µs; rows of one CSV
    // slice would otherwise all be checked in one turn of the event loop, and 50 imports at once
    // held it for hundreds of ms. The loop gets a turn after every slice of row checks.
    const slicer = new Slicer();
    for await (const { record, line } of csvRecordsWithLines(text)) {
      await slicer.pace();
      if (!state.header) {
        const problem = headerProblem(record);
        if (problem) throw AppError.invalid(problem);
        state.header = record;
        continue;
      }
      await this.take(state, line, record);
    }
  }

  private async take(state: ImportState, line: number, record: string[]): Promise<void> {
    const row = rowToFields(state.email, state.header ?? [], record);
    if (!row.ok) {
      state.result.errors.push({ line, message: row.message } satisfies ImportErrorDto);
      return;
    }
    // One INSERT … ON CONFLICT cannot touch a row twice: a repeated key starts a new batch.
    const key = row.fields.externalId === null ? null : `${row.fields.source}\u0000${row.fields.externalId}`;
    if (state.batch.length >= IMPORT_BATCH || (key !== null && state.keys.has(key))) await this.flush(state);
    state.batch.push(row.fields);
    if (key !== null) state.keys.add(key);
  }

  private async flush(state: ImportState): Promise<void> {
    const { created, updated } = await this.operations.upsertBatch(state.manager, state.email, state.batch);
    state.result.created += created;
    state.result.updated += updated;
    state.batch = [];
    state.keys.clear();
  }
}

/** Writes one chunk; waits while the client is behind. False when the client has gone. */
async function send(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
  return !res.destroyed;
}
