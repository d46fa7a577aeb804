import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/validate-env.js';
import { dataSourceOptions } from '../../src/database/database-options.js';
import {
  MAX_PARAMS,
  type MarketSample,
  MarketSampleRepository,
  PRICE_FIELDS,
  ROWS_PER_INSERT,
} from '../../src/market-data/market-sample.repository.js';
import { createTestDatabase, type TestDatabase } from '../utils/test-database.js';

const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 0, 10);

const sample = (time: number, ticker = 'BTC-USDT', exchange = 'binance', spotBid = 100): MarketSample => ({
  time: new Date(time),
  ticker,
  exchange,
  spotBid,
  spotAsk: spotBid + 1,
  futuresBid: spotBid + 2,
  futuresAsk: spotBid + 3,
  fundingRate: null,
});

describe('market_samples (rules: recorders) on the configured engine', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: MarketSampleRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource(dataSourceOptions(loadConfig({ ...db.env, LOG_LEVEL: 'silent' }).database));
    await ds.initialize();
    repo = new MarketSampleRepository(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('creates day partitions ahead, idempotently', async () => {
    expect(await repo.ensurePartitions(DAY0, 3)).toEqual([
      'market_samples_p20260110',
      'market_samples_p20260111',
      'market_samples_p20260112',
    ]);
    expect(await repo.ensurePartitions(DAY0 + DAY, 2)).toEqual([]);
    expect(await repo.partitions()).toHaveLength(3);
  });

  it('files each row in its day partition, in chunked multi-row inserts under 65,535 parameters', async () => {
    expect(ROWS_PER_INSERT * 8).toBeLessThanOrEqual(MAX_PARAMS);
    const rows: MarketSample[] = [];
    // 2 days x 3 groups x 1,500 rows = 9,000 rows: more than one full statement.
    for (const ticker of ['BTC-USDT', 'ETH-USDT', 'SOL-USDT']) {
      for (let i = 0; i < 1500; i++) rows.push(sample(DAY0 + i * 5_000, ticker), sample(DAY0 + DAY + i * 5_000, ticker));
    }
    await repo.insert(rows);
    await repo.insert(rows.slice(0, 10), 3); // repeats are no-ops
    const perPartition: { p: string; n: string }[] = await ds.query(
      `SELECT tableoid::regclass::text AS p, count(*) AS n FROM market_samples GROUP BY 1 ORDER BY 1`,
    );
    expect(perPartition.map((r) => [r.p, Number(r.n)])).toEqual([
      ['market_samples_p20260110', 4500],
      ['market_samples_p20260111', 4500],
    ]);
  });

  it('finds the latest sample of (ticker, exchange) no older than a bound', async () => {
    const latest = await repo.latestSample('ETH-USDT', 'binance', new Date(DAY0));
    expect(latest?.time.getTime()).toBe(DAY0 + DAY + 1499 * 5_000);
    expect(latest).toMatchObject({ spotBid: 100, spotAsk: 101, futuresBid: 102, futuresAsk: 103, fundingRate: null });
    expect(await repo.latestSample('ETH-USDT', 'binance', new Date(DAY0 + 3 * DAY))).toBeNull();
    expect(await repo.latestSample('ETH-USDT', 'okx', new Date(0))).toBeNull();
  });

  it('reads a day per (ticker, exchange) in time order', async () => {
    const groups: { key: string; times: number[] }[] = [];
    for await (const g of repo.groupPricesBetween(new Date(DAY0), new Date(DAY0 + DAY))) {
      groups.push({ key: `${g.ticker}/${g.exchange}`, times: Array.from({ length: g.count }, (_, i) => g.values[i * PRICE_FIELDS]) });
    }
    expect(groups.map((g) => g.key)).toEqual(['BTC-USDT/binance', 'ETH-USDT/binance', 'SOL-USDT/binance']);
    for (const g of groups) {
      expect(g.times).toHaveLength(1500);
      expect(g.times.every((t, i) => i === 0 || t > (g.times[i - 1]))).toBe(true);
      expect(g.times.every((t) => t >= DAY0 && t < DAY0 + DAY)).toBe(true);
    }
  });

  it('hands a range over one (ticker, exchange) group at a time, prices in time order, across partitions', async () => {
    // Written time-major and out of order across the midnight between two partitions, as a late
    // batch would be; one group lies wholly outside the range and one reaches past its end.
    const from = DAY0 + DAY - 60_000;
    const to = DAY0 + DAY + 60_000;
    const rows: MarketSample[] = [];
    for (const i of [3, 0, 2, 1]) {
      rows.push(sample(DAY0 + DAY - 30_000 + i * 15_000, 'AAA-USDT', 'okx', 10 + i));
      rows.push(sample(DAY0 + DAY - 30_000 + i * 15_000, 'AAA-USDT', 'bybit', 20 + i));
    }
    rows.push(sample(to, 'AAA-USDT', 'bybit', 99), sample(from - 1, 'ZZZ-USDT', 'okx', 99));
    await repo.insert(rows);
    const got: { key: string; count: number; values: number[] }[] = [];
    for await (const g of repo.groupPricesBetween(new Date(from), new Date(to))) {
      got.push({ key: `${g.ticker}/${g.exchange}`, count: g.count, values: [...g.values] });
    }
    const expected = (spotBid: number, time: number): number[] => [time, spotBid, spotBid + 1, spotBid + 2, spotBid + 3];
    const times = [0, 1, 2, 3].map((i) => DAY0 + DAY - 30_000 + i * 15_000);
    await ds.query(`DELETE FROM market_samples WHERE ticker IN ('AAA-USDT', 'ZZZ-USDT')`);
    expect(got.map((g) => g.key)).toEqual(['AAA-USDT/bybit', 'AAA-USDT/okx', 'BTC-USDT/binance', 'ETH-USDT/binance', 'SOL-USDT/binance']);
    expect(got[0]).toEqual({ key: 'AAA-USDT/bybit', count: 4, values: times.flatMap((t, i) => expected(20 + i, t)) });
    expect(got[1]).toEqual({ key: 'AAA-USDT/okx', count: 4, values: times.flatMap((t, i) => expected(10 + i, t)) });
    // The earlier test's groups have samples every 5 s from DAY0 + DAY on: 12 in the first minute.
    expect(got.slice(2).map((g) => g.count)).toEqual([12, 12, 12]);
  });

  it('reads a group by an index-only scan of the covering primary key once vacuumed', async () => {
    await ds.query('VACUUM market_samples_p20260110');
    const plan: { 'QUERY PLAN': string }[] = await ds.query(
      `EXPLAIN SELECT time, spot_bid, spot_ask, futures_bid, futures_ask FROM market_samples_p20260110
       WHERE ticker = 'BTC-USDT' AND exchange = 'binance' AND time >= '2026-01-10T01:00:00Z' ORDER BY time`,
    );
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan/);
  });

  it('serves the latest-sample query from the primary key, on one partition', async () => {
    const plan: { 'QUERY PLAN': string }[] = await ds.query(
      `EXPLAIN SELECT * FROM market_samples WHERE ticker = 'BTC-USDT' AND exchange = 'binance'
       AND time >= '2026-01-11T12:00:00Z' ORDER BY time DESC LIMIT 1`,
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index (Only )?Scan Backward/);
    expect(text).not.toContain('p20260110');
  });

  it('applies retention by dropping whole partitions, never deleting rows', async () => {
    expect(await repo.dropPartitionsBefore(DAY0 + DAY + 1)).toEqual(['market_samples_p20260110']);
    expect(await repo.partitions()).toEqual(['market_samples_p20260111', 'market_samples_p20260112']);
    const [{ n }] = await ds.query<[{ n: string }]>(`SELECT count(*) AS n FROM market_samples`);
    expect(Number(n)).toBe(4500);
  });
});
