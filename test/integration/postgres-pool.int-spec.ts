import 'reflect-metadata';
import net from 'node:net';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions, type PoolTimings } from '../../src/database/database-options.js';
import { createPostgresTestDatabase, type TestDatabase } from '../utils/test-database.js';

/**
 * The PostgreSQL pool keeps two timeouts apart (README, Faults): a connect to a server that does
 * not answer gives up after the connect timeout, while a request queued behind busy connections
 * waits up to the longer pool wait. With one timeout for both (node-postgres's
 * connectionTimeoutMillis) a burst of heavy requests failed once the queue was longer than 5 s.
 * On a real server: DATABASE_URL when set, else the local one.
 */
async function open(url: string, timings: PoolTimings): Promise<DataSource> {
  const ds = new DataSource({ ...dataSourceOptions({ kind: 'postgres', url, connectWaitMs: 0 }, [], timings), migrationsRun: false });
  await ds.initialize();
  return ds;
}

describe('PostgreSQL pool: connect timeout apart from the wait for a free connection', () => {
  let db: TestDatabase;
  let url: string;
  beforeAll(async () => {
    db = await createPostgresTestDatabase();
    url = db.env.DATABASE_URL as string;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a request queued longer than the connect timeout is still served', async () => {
    const ds = await open(url, { poolSize: 2, connectTimeoutMs: 300, poolWaitMs: 10_000 });
    try {
      const started = performance.now();
      // Two hold both connections for 0.8 s; the third waits for one of them.
      const results = await Promise.allSettled([1, 2, 3].map((n) => ds.query('SELECT $1::int AS n, pg_sleep(0.8)', [n])));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(performance.now() - started).toBeGreaterThan(1_500);
    } finally {
      await ds.destroy();
    }
  });

  it('the wait for a free connection is bounded by the pool wait', async () => {
    const ds = await open(url, { poolSize: 1, connectTimeoutMs: 5_000, poolWaitMs: 300 });
    try {
      const [held, queued] = await Promise.allSettled([ds.query('SELECT pg_sleep(1.5)'), ds.query('SELECT 1')]);
      expect(held.status).toBe('fulfilled');
      expect(queued.status).toBe('rejected');
      expect(String((queued as PromiseRejectedResult).reason)).toMatch(/timeout/i);
    } finally {
      await ds.destroy();
    }
  });

  it('a server that accepts but never answers fails the connect after the connect timeout', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = performance.now();
      await expect(open(`postgres://postgres@127.0.0.1:${port}/postgres`, { poolSize: 2, connectTimeoutMs: 300, poolWaitMs: 60_000 })).rejects.toThrow();
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
