import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { takeTurn } from '../common/async/turns.js';

const CR = 0x0d;
const LF = 0x0a;

/**
 * Line numbers of a CSV's records as an editor shows them: CRLF, LF and a lone CR each end one
 * line, and a quoted field's line breaks count too. The parser reports where each record ends (a
 * byte offset); the record's line is that of its first character, after any blank lines the
 * parser skipped. Counting bytes, not the parser's raw text, keeps CRLF as one line end whatever
 * delimiter the parser detected. CR and LF never occur inside a multi-byte UTF-8 sequence.
 */
export class CsvLineCounter {
  private line = 1;
  private pos = 0;
  private afterCr = false;

  constructor(private readonly bytes: Uint8Array) {}

  /** The line on which the record that ends at byte `end` (exclusive) begins. */
  recordEndingAt(end: number): number {
    const stop = Math.min(end, this.bytes.length);
    while (this.pos < stop && isLineEnd(this.bytes[this.pos])) this.step();
    const first = this.line;
    while (this.pos < stop) this.step();
    return first;
  }

  private step(): void {
    const byte = this.bytes[this.pos];
    this.pos += 1;
    if (byte === CR || (byte === LF && !this.afterCr)) this.line += 1;
    this.afterCr = byte === CR;
  }
}

function isLineEnd(byte: number | undefined): boolean {
  return byte === CR || byte === LF;
}

/** Bytes handed to the parser per turn of the event loop: about a millisecond of parsing. */
const SLICE_BYTES = 64 * 1024;

/**
 * The records of a CSV with the line each starts on. Line ends are CRLF, LF or CR, as the
 * export writes and spreadsheets save; blank lines are skipped. The text is fed to the parser
 * in slices with a turn of the event loop between them: given whole, a 64 MiB import was parsed
 * in one synchronous call and every other request waited for it.
 */
export async function* csvRecordsWithLines(text: string): AsyncGenerator<{ record: string[]; line: number }> {
  const bytes = Buffer.from(text, 'utf8');
  const counter = new CsvLineCounter(bytes);
  const parser = Readable.from(slices(bytes), { objectMode: false }).pipe(parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
  }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      yield { record, line: counter.recordEndingAt(info.bytes) };
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    // The parser's own message quotes the offending characters; the client gets a fixed text.
    const start = (err as CsvError & { bytes?: number }).bytes ?? 0;
    counter.recordEndingAt(start);
    throw new CsvReadError(CSV_PROBLEMS[err.code] ?? 'malformed CSV', counter.recordEndingAt(bytes.length));
  }
}

/** A CSV that cannot be parsed, with a reason in our words and the line its bad record starts on. */
export class CsvReadError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`${reason} (record starting on line ${line})`);
    this.name = 'CsvReadError';
  }
}

const CSV_PROBLEMS: Partial<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by text',
  CSV_INVALID_OPENING_QUOTE: 'a quote inside an unquoted field',
};

async function* slices(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
    if (offset > 0) await takeTurn();
    yield bytes.subarray(offset, offset + SLICE_BYTES);
  }
}
