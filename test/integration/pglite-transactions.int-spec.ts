import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../../src/database/database-options.js';

/**
 * The embedded database has one session. The driver lends it to one query runner at a time, so
 * overlapping transactions cannot end each other: every committed row stays and only the
 * failed transaction rolls back.
 */
describe('PGlite driver: overlapping transactions', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = new DataSource(dataSourceOptions({ kind: 'pglite', path: ':memory:' }));
    await ds.initialize();
    await ds.query('CREATE TABLE overlap (id int PRIMARY KEY, note text)');
  });
  afterAll(async () => {
    await ds.destroy();
  });

  const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 1)); // time: one timer turn between two statements, so transactions interleave

  it('keeps every committed row and rolls back only the failed transaction', async () => {
    const results = await Promise.allSettled([
      ds.transaction(async (m) => {
        await m.query('INSERT INTO overlap VALUES (1, $1)', ['a']);
        await tick();
        await m.query('INSERT INTO overlap VALUES (2, $1)', ['a']);
      }),
      ds.transaction(async (m) => {
        await m.query('INSERT INTO overlap VALUES (3, $1)', ['b']);
        await tick();
        throw new Error('business rule failed');
      }),
      ds.transaction(async (m) => {
        await m.query('INSERT INTO overlap VALUES (4, $1)', ['c']);
        await tick();
        await m.query('INSERT INTO overlap VALUES (5, $1)', ['c']);
      }),
      ds.query('INSERT INTO overlap VALUES (6, $1)', ['outside']),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const rows = await ds.query<{ id: number }[]>('SELECT id FROM overlap ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([1, 2, 4, 5, 6]);
  });

  it('a failing statement inside a transaction rolls back that transaction only', async () => {
    await ds.query('DELETE FROM overlap');
    const results = await Promise.allSettled([
      ds.transaction(async (m) => {
        await m.query('INSERT INTO overlap VALUES (10, $1)', ['ok']);
        await tick();
      }),
      ds.transaction(async (m) => {
        await m.query('INSERT INTO overlap VALUES (11, $1)', ['dup']);
        await m.query('INSERT INTO overlap VALUES (11, $1)', ['dup']); // primary key violation
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const rows = await ds.query<{ id: number }[]>('SELECT id FROM overlap ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([10]);
  });

  it('runs the migrations at start', async () => {
    const rows = await ds.query<{ t: string | null }[]>(`SELECT to_regclass('favorite_cryptos') AS t`);
    expect(rows[0]?.t).toBe('favorite_cryptos');
  });
});
