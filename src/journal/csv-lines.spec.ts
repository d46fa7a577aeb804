import { describe, expect, it } from 'vitest';
import { CsvReadError, csvRecordsWithLines } from './csv-lines.js';

/** Each record's first cell with its line, as the import reads them. */
async function linesOf(text: string): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for await (const { record, line } of csvRecordsWithLines(text)) out.push([record[0] ?? '', line]);
  return out;
}

// Line 1 header, line 2 a row, line 3 blank, lines 4-5 one record with a quoted line break,
// line 6 a row with non-ASCII text, line 7 a last row without a final line end.
const rows = (eol: string): string => ['h,x', 'a,1', '', `"b${eol}b",2`, 'çã€,3', 'd,4'].join(eol);

describe('CSV line numbers (as an editor counts them)', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('%s: each record gets the line it starts on', async (_name, eol) => {
    expect(await linesOf(rows(eol))).toEqual([
      ['h', 1],
      ['a', 2],
      [`b${eol}b`, 4],
      ['çã€', 6],
      ['d', 7],
    ]);
  });

  it('a file with mixed line ends counts each kind once, and a BOM is not a line', async () => {
    const text = '\uFEFFh,x\r\na,1\n\r\n"b\r\nb",2\rc,3\n';
    expect((await linesOf(text)).map(([, line]) => line)).toEqual([1, 2, 4, 6]);
  });

  it('CRLF: a bad row on file line 3 is line 3, not line 1', async () => {
    expect((await linesOf('h,x\r\na,1\r\nbad\r\n')).at(-1)).toEqual(['bad', 3]);
  });

  it.each([
    ['CRLF', 'h,x\r\na,1\r\n\r\n"b\r\nb"secret,2\r\n', 'a closing quote is followed by text (record starting on line 4)'],
    ['LF', 'h,x\na,1\n"open,2\nmore\n', 'a quoted field is not closed (record starting on line 3)'],
  ])('%s: an unreadable record is named by its line, without echoing its text', async (_name, text, message) => {
    const failure = await linesOf(text).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(CsvReadError);
    expect((failure as Error).message).toBe(message);
  });

  it('a CSV far above one parser slice: records split across slices (CRLF, multi-byte text) stay whole and numbered', async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => `r${i},"ç€${'x'.repeat(i % 50)}\r\nsecond"`);
    const text = ['h,x', ...rows].join('\r\n');
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * 64 * 1024);
    let other = 0;
    const tick = setInterval(() => (other += 1), 0);
    const got = await linesOf(text);
    clearInterval(tick);
    expect(got).toHaveLength(6001);
    got.slice(1).forEach(([first, line], i) => {
      expect(first).toBe(`r${i}`);
      expect(line).toBe(2 + 2 * i); // each record takes two lines
    });
    // Other work ran while the file was parsed: it is fed a slice per turn of the event loop.
    expect(other).toBeGreaterThan(0);
  });
});
