import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const HEADER =
  'id,status,strategy,asset,buy_exchange,sell_exchange,quantity,short_quantity,entry_buy_price,entry_sell_price,' +
  'exit_buy_price,exit_sell_price,trading_fees,withdrawal_fees,funding,fees_estimated,gross_pnl,net_pnl,net_pnl_pct,' +
  'opened_at,closed_at,source,external_id,notes';

type Row = Record<string, string>;

describe('journal CSV export and import (rules: csv)', () => {
  let t: TestApp;
  const create = (body: Record<string, unknown>) => request(t.baseUrl).post('/v1/journal/operations').send(body).expect(201);
  const exportCsv = (query: Record<string, unknown>) =>
    request(t.baseUrl).get('/v1/journal/export.csv').query(query).buffer(true).parse((res, cb) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => cb(null, text));
    });
  const rowsOf = (text: string): Row[] => parse<Row>(text, { columns: true });
  const importCsv = (email: string, csv: string, type = 'text/csv') =>
    request(t.baseUrl).post('/v1/journal/import').query({ email }).set('Content-Type', type).send(csv);
  const listAll = async (email: string) =>
    (await request(t.baseUrl).get('/v1/journal/operations').query({ email, limit: 500 }).expect(200)).body.data;

  beforeAll(async () => {
    t = await startTestApp();
    const email = 'exp@example.com';
    await create({
      email, strategy: 'spot_futures', asset: 'BTC', buyExchange: 'binance', sellExchange: 'binance',
      openedAt: '2026-03-01T12:30:00Z', closedAt: '2026-03-02T13:00:00Z', quantity: 0.0000001, shortQuantity: 2,
      entryBuyPrice: 100, entrySellPrice: 102, exitSellPrice: 101, exitBuyPrice: 101.5, tradingFees: 0.5,
      funding: -0.25, feesEstimated: true, externalId: '+44 ref', notes: '=HYPERLINK("http://x")',
    });
    await create({
      email, strategy: 'cross_exchange', asset: 'ETH', buyExchange: '@evil', sellExchange: 'okx',
      openedAt: '2018-01-15T12:30:00.250Z', quantity: 1.5, entryBuyPrice: 1e21, notes: 'line one,\n"two"\r\n-three',
    });
    await create({
      email, strategy: 'funding', asset: 'SOL', buyExchange: 'gate', sellExchange: 'gate',
      openedAt: '2026-03-03T00:00:00Z', shortQuantity: 3, entrySellPrice: 20, source: 'bot', externalId: '-7',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('export', () => {
    it('answers CSV as an attachment, with the API contract header in order and rows newest opened first', async () => {
      const res = await exportCsv({ email: 'exp@example.com' }).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="journal.csv"');
      const text = res.body as string;
      expect(text.split('\n')[0]).toBe(HEADER);
      expect(rowsOf(text).map((r) => r.asset)).toEqual(['SOL', 'BTC', 'ETH']);
    });

    it('formats: São Paulo RFC 3339 dates, plain decimals, true/false, empty null, computed results', async () => {
      const [, btc, eth] = rowsOf((await exportCsv({ email: 'exp@example.com' })).body as string) as [Row, Row, Row];
      expect(btc).toMatchObject({
        status: 'closed', quantity: '0.0000001', short_quantity: '2', funding: '-0.25', fees_estimated: 'true',
        // gross (101−100)×0.0000001 + (102−101.5)×2 = 1.0000001; net − 0.5 − 0.25 = 0.2500001
        gross_pnl: '1.0000001', net_pnl: '0.2500001',
        opened_at: '2026-03-01T09:30:00-03:00', closed_at: '2026-03-02T10:00:00-03:00',
        source: 'manual', exit_buy_price: '101.5',
      });
      expect(eth).toMatchObject({
        status: 'open', entry_buy_price: '1000000000000000000000', exit_sell_price: '', gross_pnl: '', net_pnl_pct: '',
        closed_at: '', external_id: '', fees_estimated: 'false', opened_at: '2018-01-15T10:30:00.250-02:00',
      });
    });

    it('every text cell starting with = + - @ tab or CR gets an apostrophe; numbers never do', async () => {
      const [sol, btc, eth] = rowsOf((await exportCsv({ email: 'exp@example.com' })).body as string) as [Row, Row, Row];
      expect(btc.notes).toBe(`'=HYPERLINK("http://x")`);
      expect(btc.external_id).toBe(`'+44 ref`);
      expect(btc.funding).toBe('-0.25');
      expect(eth.buy_exchange).toBe(`'@evil`);
      expect(eth.notes).toBe('line one,\n"two"\r\n-three');
      expect(sol.external_id).toBe(`'-7`);
    });

    it('applies the listing filters (status, strategy, asset, source, from, to)', async () => {
      const count = async (q: Record<string, unknown>) => rowsOf((await exportCsv({ email: 'exp@example.com', ...q }).expect(200)).body as string).length;
      expect(await count({ status: 'closed' })).toBe(1);
      expect(await count({ status: 'open' })).toBe(2);
      expect(await count({ strategy: 'funding' })).toBe(1);
      expect(await count({ asset: 'eth' })).toBe(1);
      expect(await count({ source: 'bot' })).toBe(1);
      expect(await count({ from: '2026-03-02T13:00:00Z', to: '2026-03-03T00:00:00Z' })).toBe(1);
    });

    it('a user with no operation gets the header only; 400s are JSON', async () => {
      expect((await exportCsv({ email: 'none@example.com' }).expect(200)).body).toBe(`${HEADER}\n`);
      const res = await request(t.baseUrl).get('/v1/journal/export.csv').expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'email is required', error: 'Bad Request' });
      const bad = await request(t.baseUrl).get('/v1/journal/export.csv').query({ email: 'a@b.co', status: 'x' }).expect(400);
      expect(bad.body.message).toBe('status must be one of open, closed');
    });

    it('pages through more than 1,000 rows in order without gaps or repeats', async () => {
      const email = 'many@example.com';
      const lines = Array.from({ length: 1205 }, (_, i) =>
        `,,other,BTC,a,b,1,0,${i + 1},,,,0,0,0,false,,,,2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z,,,,`,
      );
      const res = await importCsv(email, [HEADER, ...lines].join('\n')).expect(200);
      expect(res.body).toEqual({ created: 1205, updated: 0, errors: [] });
      const rows = rowsOf((await exportCsv({ email })).body as string);
      expect(rows).toHaveLength(1205);
      expect(new Set(rows.map((r) => r.id)).size).toBe(1205);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        expect(a.opened_at >= b.opened_at).toBe(true);
        if (a.opened_at === b.opened_at) expect(a.id < b.id).toBe(true);
      }
    });
  });

  describe('import', () => {
    it('round trip: an export imported into an empty account reproduces every value', async () => {
      const original = await listAll('exp@example.com');
      const csv = (await exportCsv({ email: 'exp@example.com' })).body as string;
      const res = await importCsv('copy@example.com', csv).expect(200);
      expect(res.body).toEqual({ created: 3, updated: 0, errors: [] });
      const copy = await listAll('copy@example.com');
      const strip = (ops: Record<string, unknown>[]) => ops.map(({ id: _id, email: _email, ...rest }) => rest);
      expect(strip(copy)).toEqual(strip(original));
      // and its export is the same file but for the ids
      const again = (await exportCsv({ email: 'copy@example.com' })).body as string;
      const noIds = (text: string) => rowsOf(text).map(({ id: _id, ...rest }) => rest);
      expect(noIds(again)).toEqual(noIds(csv));
    });

    it('re-importing updates by (source, external_id), creates the rest', async () => {
      const csv = (await exportCsv({ email: 'exp@example.com' })).body as string;
      await importCsv('again@example.com', csv).expect(200);
      const edited = csv.replace(`'+44 ref,`, `'+44 ref,`).replace('0.0000001', '0.0000002');
      const res = await importCsv('again@example.com', edited).expect(200);
      // two rows carry an external_id (updated); the one without is created again
      expect(res.body).toEqual({ created: 1, updated: 2, errors: [] });
      const ops = await listAll('again@example.com');
      expect(ops).toHaveLength(4);
      expect(ops.find((o: { externalId: string }) => o.externalId === '+44 ref').quantity).toBe(0.0000002);
    });

    // With CRLF the line of a bad row on file line 3 was reported as 1.
    it.each([
      ['LF', '\n'],
      ['CRLF', '\r\n'],
      ['CR', '\r'],
    ])('%s: reports each invalid row with the line an editor shows; valid rows are stored; empty source becomes import', async (name, eol) => {
      const email = `rows-${name.toLowerCase()}@example.com`;
      const csv = [
        HEADER,
        ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,ok',
        ',,other,BTC,a,b,1,0,,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,missing price',
        '',
        ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,"multi',
        'line note"',
        ',,hodl,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,bad strategy',
        ',,other,BTC,a,b,1,0,10,,,,0,0,0,maybe,,,,2026-01-01T00:00:00Z,,,,bad bool',
        ',closed,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,closed without date',
        ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,,,no exit',
        ',,other,BTC,a,b,1,0,10,,,,0,0,x,false,,,,2026-01-01T00:00:00Z,,,,bad funding',
        ',,other,BTC,a,b,1',
        `,,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,"'=neutralised","'@note"`,
      ].join(eol);
      const res = await importCsv(email, csv).expect(200);
      expect(res.body).toEqual({
        created: 3,
        updated: 0,
        errors: [
          { line: 3, message: 'entry_buy_price is required' },
          { line: 7, message: 'strategy must be one of spot_futures, cross_exchange, funding, other' },
          { line: 8, message: 'fees_estimated must be true or false' },
          { line: 9, message: 'closed_at is required' },
          { line: 10, message: 'exit_sell_price is required' },
          { line: 11, message: 'funding must be a number' },
          { line: 12, message: 'row has 7 columns, expected 24' },
        ],
      });
      const ops = await listAll(email);
      expect(ops.map((o: { notes: string }) => o.notes).sort()).toEqual(['@note', `multi${eol}line note`, 'ok']);
      expect(ops.map((o: { source: string }) => o.source)).toEqual(['import', 'import', 'import']);
      expect(ops.map((o: { externalId: string | null }) => o.externalId)).toContain('=neutralised');
    });

    it('a file that repeats an external_id: the later row updates the earlier one', async () => {
      const row = (price: number) => `,,other,BTC,a,b,1,0,${price},,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,dup,`;
      const res = await importCsv('dup@example.com', [HEADER, row(1), row(2)].join('\n')).expect(200);
      expect(res.body).toEqual({ created: 1, updated: 1, errors: [] });
      expect((await listAll('dup@example.com'))[0].entryBuyPrice).toBe(2);
    });

    it('rejects a wrong header, an unreadable CSV, a missing email and a non-CSV body; nothing is stored', async () => {
      const wrong = await importCsv('bad@example.com', 'id,status\n1,open').expect(400);
      expect(wrong.body).toEqual({ statusCode: 400, message: `CSV header must be: ${HEADER}`, error: 'Bad Request' });
      const empty = await importCsv('bad@example.com', '').expect(400);
      expect(empty.body.message).toBe(`CSV header must be: ${HEADER}`);
      const good = ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,';
      const broken = await importCsv('bad@example.com', `${HEADER}\n${good}\n${good.replace(/,$/, ',"open quote')}`).expect(400);
      // The parser's own text quoted the offending characters; the message names the line only.
      expect(broken.body.message).toBe('CSV could not be read: a quoted field is not closed (record starting on line 3)');
      expect(await listAll('bad@example.com')).toEqual([]);
      const noEmail = await request(t.baseUrl).post('/v1/journal/import').set('Content-Type', 'text/csv').send(HEADER).expect(400);
      expect(noEmail.body.message).toBe('email is required');
      const json = await request(t.baseUrl).post('/v1/journal/import').query({ email: 'bad@example.com' }).send({ a: 1 }).expect(415);
      expect(json.body.statusCode).toBe(415);
    });

    it('accepts a body far above the 1 MiB JSON limit (the CSV limit is 64 MiB)', async () => {
      const line = ',,other,BTC,a,b,1,0,10,,,,0,0,0,false,,,,2026-01-01T00:00:00Z,,,,' + 'n'.repeat(1900);
      const csv = [HEADER, ...Array.from({ length: 700 }, () => line)].join('\n');
      expect(csv.length).toBeGreaterThan(1024 * 1024);
      const res = await importCsv('big@example.com', csv).expect(200);
      expect(res.body.created).toBe(700);
    });
  });
});
