import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_HEADER } from '../../src/journal/journal-csv.js';
import { seededRng } from '../../src/simulator/random-walk.js';
import { startServiceProcess } from '../utils/service-process.js';
import { faultDatabase, type FaultDatabase } from './fault-database.js';
import { sleep } from '../utils/wait.js';

/**
 * the hardening, faults: SIGKILL at a random moment under write load, then the invariants. Nothing the
 * service acknowledged is lost, nothing is half-written (an import is all of its rows or none),
 * no key is duplicated, every market_samples day table is still
 * a partition, and the service starts again on the same data.
 */
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 100_000);
const IMPORT_ROWS = 200;

interface Acknowledged {
  operationIds: string[];
  favorites: string[];
  /** Import e-mail → acknowledged (true) or cut off (false). */
  imports: Map<string, boolean>;
  /** Answers other than success: there must be none (after the kill, requests fail without one). */
  refused: string[];
}

function csv(tag: string): string {
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) =>
    `,closed,other,ETH,okx,bybit,2,0,100,,,103,0.2,0,0,false,,,,2026-02-01T00:00:00Z,2026-02-02T00:00:00Z,,${tag}-${i},`);
  return [CSV_HEADER.join(','), ...rows].join('\n');
}

/** Three writers until the first failure (the kill): creates, favorites, imports. */
async function writeLoad(baseUrl: string, acked: Acknowledged, round: number): Promise<void> {
  const post = (path: string, body: string, type = 'application/json') =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  const creates = async () => {
    for (let i = 0; ; i++) {
      const res = await post('/v1/journal/operations', JSON.stringify({
        email: 'load@example.com', strategy: 'cross_exchange', asset: 'ETH', buyExchange: 'okx', sellExchange: 'bybit',
        openedAt: '2026-03-05T12:00:00Z', quantity: 1, entryBuyPrice: 100 + i, externalId: `op-${round}-${i}`, source: 'api',
      }));
      if (res.status !== 201) return acked.refused.push(`create ${res.status} ${await res.text()}`);
      acked.operationIds.push(((await res.json()) as { id: string }).id);
    }
  };
  const favorites = async () => {
    for (let i = 0; ; i++) {
      const res = await post('/v1/favorite-cryptos', JSON.stringify({ email: `fav${i % 50}@example.com`, ticker: `R${round}C${i}-USDT` }));
      if (res.status !== 201) return acked.refused.push(`favorite ${res.status} ${await res.text()}`);
      acked.favorites.push(`fav${i % 50}@example.com R${round}C${i}USDT`);
    }
  };
  const imports = async () => {
    for (let i = 0; ; i++) {
      const email = `import${round}-${i}@example.com`;
      acked.imports.set(email, false);
      const res = await post(`/v1/journal/import?email=${email}`, csv(`i${round}-${i}`), 'text/csv');
      if (res.status !== 200) return acked.refused.push(`import ${res.status} ${await res.text()}`);
      acked.imports.set(email, true);
    }
  };
  await Promise.allSettled([creates(), favorites(), imports()]);
}

describe(`SIGKILL under write load, then the invariants (the hardening; FAULT_SEED=${SEED})`, () => {
  let db: FaultDatabase;
  beforeAll(async () => {
    db = await faultDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('acknowledged writes survive, imports are whole, keys unique, partitions attached; the service starts again', async () => {
    // The simulator's seeded generator: the kill moment is reproducible from the seed in the title.
    const next = seededRng(SEED);
    const env = { ...db.env, ENABLED_WEBSOCKET: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0' };
    for (let round = 0; round < 2; round++) {
      const service = await startServiceProcess(env);
      const acked: Acknowledged = { operationIds: [], favorites: [], imports: new Map(), refused: [] };
      const load = writeLoad(service.baseUrl, acked, round);
      await sleep(1_500 + next() * 2_000); // time: the kill lands at a seeded random moment of the writes
      service.signal('SIGKILL');
      await Promise.all([service.exited, load]);
      expect(acked.refused).toEqual([]);
      expect(acked.operationIds.length).toBeGreaterThan(0);
      expect(acked.favorites.length).toBeGreaterThan(0);

      // The database after the crash, opened directly (for the embedded one this is its recovery).
      const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string | number }>(sql, params))[0]?.n);
      expect(await count(`SELECT count(*) AS n FROM journal_operations WHERE id = ANY($1::uuid[])`, [acked.operationIds])).toBe(acked.operationIds.length);
      const favorites = new Set((await db.query<{ key: string }>(`SELECT email || ' ' || ticker AS key FROM favorite_cryptos`)).map((f) => f.key));
      expect(acked.favorites.filter((f) => !favorites.has(f))).toEqual([]);
      for (const [email, answered] of acked.imports) {
        const stored = await count(`SELECT count(*) AS n FROM journal_operations WHERE email = $1`, [email]);
        if (answered) expect(stored, email).toBe(IMPORT_ROWS);
        else expect([0, IMPORT_ROWS], email).toContain(stored);
      }
      expect(await db.query(`SELECT email, source, external_id FROM journal_operations WHERE external_id IS NOT NULL
                               GROUP BY 1, 2, 3 HAVING count(*) > 1`)).toEqual([]);
      expect(await db.query(`SELECT email, ticker FROM favorite_cryptos GROUP BY 1, 2 HAVING count(*) > 1`)).toEqual([]);
      // No day table of market_samples left outside the partitioned table.
      expect(await db.query(`SELECT relname FROM pg_class WHERE relname LIKE 'market\\_samples\\_p%' AND relkind = 'r' AND NOT relispartition`)).toEqual([]);
      expect(await count(`SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'market_samples'::regclass`)).toBeGreaterThan(0);
    }
    // And the service runs on what is left.
    const again = await startServiceProcess(env);
    const res = await fetch(`${again.baseUrl}/v1/journal/operations?email=load@example.com&limit=1`);
    expect(res.status).toBe(200);
    again.signal('SIGTERM');
    expect((await again.exited).code).toBe(0);
  }, 240_000);
});
