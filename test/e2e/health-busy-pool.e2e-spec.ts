import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL_TIMINGS } from '../../src/database/database-options.js';
import { PROBE_TIMEOUT_MS } from '../../src/health/database-probe.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { createPostgresTestDatabase, type TestDatabase } from '../utils/test-database.js';
import { sleep } from '../utils/wait.js';


/**
 * Liveness is the database's, not the pool's: with every pooled connection busy for longer than
 * the probe's timeout (a burst of 50 large imports did that), /health stays 200, because the
 * probe has a session of its own. Before, its ping queued behind the burst and /health said 503
 * after 3 s. PostgreSQL always (DATABASE_URL when set, else the local server): the embedded
 * database has no pool.
 */
describe('/health while every pooled PostgreSQL connection is busy', () => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    db = await createPostgresTestDatabase();
    t = await startTestApp({ ...db.env, SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it(`stays 200 while the pool is held for longer than ${PROBE_TIMEOUT_MS} ms`, async () => {
    const ds = t.app.get(DataSource);
    const holdSeconds = (PROBE_TIMEOUT_MS + 1_500) / 1000;
    const held = Promise.all(Array.from({ length: POOL_TIMINGS.poolSize }, () => ds.query(`SELECT pg_sleep(${holdSeconds})`)));
    const statuses: number[] = [];
    const until = Date.now() + holdSeconds * 1000 - 300;
    while (Date.now() < until) {
      statuses.push((await fetch(`${t.baseUrl}/health`)).status);
      await sleep(100); // time: sampling /health while the pool is held
    }
    await held;
    expect(statuses.length).toBeGreaterThan(20);
    expect(new Set(statuses)).toEqual(new Set([200]));
  }, 30_000);
});
