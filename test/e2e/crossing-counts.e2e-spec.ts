import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saoPauloDayOf } from '../../src/common/time/sao-paulo.js';
import { CrossingCountWorker } from '../../src/crossing-counts/crossing-count.worker.js';
import { CrossingCountsService } from '../../src/crossing-counts/crossing-counts.service.js';
import { MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';
import { DAY, DAY_START, designedSamples, EXPECTED_DAY, NEXT_DAY, sample } from './crossing-counts.fixtures.js';

const PATH = '/v1/arbitrage/future/crossing-counts';

/** Polls until `probe` returns something other than undefined (the job runs after the 202). */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  return (await until(probe, (value) => value !== undefined, timeoutMs, 25)) as T;
}

describe('crossing counts: job and read endpoint (rules: crossing-counts)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000', SAMPLE_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    db = t.app.get(DataSource);
    const samples = t.app.get(MarketSampleRepository);
    await samples.ensurePartitions(DAY_START - 86_400_000, 3);
    await samples.insert(designedSamples());
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (body?: object) => {
    const req = request(t.baseUrl).post(PATH);
    return body === undefined ? req : req.send(body);
  };
  const get = (query: Record<string, string> = {}) => request(t.baseUrl).get(PATH).query(query);
  const dayCounts = async (from = DAY, to = DAY): Promise<unknown[]> => (await get({ from, to }).expect(200)).body;
  const rowsOf = async (day: string): Promise<{ n: number; at: string }> => {
    const [row] = await db.query(
      `SELECT count(*)::int AS n, max(processed_at)::text AS at FROM crossing_counts WHERE processing_date = $1`,
      [day],
    );
    return row;
  };
  /** Resolves once a run of `day` has stored its records after `since` (processed_at moved). */
  const storedAfter = (day: string, since: string | null) =>
    waitFor(async () => {
      const { at } = await rowsOf(day);
      return at !== null && at !== since ? at : undefined;
    });

  it('POST answers 202 with the date, then the job stores the hand-counted crossings of that São Paulo day', async () => {
    const res = await post({ date: DAY }).expect(202);
    expect(res.body).toEqual({ processingDate: DAY, status: 'accepted' });
    // Samples one millisecond before the day and at its end are excluded; ETH-USDT okx gets its 0.
    const counts = await waitFor(async () => {
      const body = await dayCounts();
      return body.length > 0 ? body : undefined;
    });
    expect(counts).toEqual(EXPECTED_DAY);
    expect((await rowsOf(DAY)).n).toBe(5);
  });

  it('reprocessing the same date changes nothing and duplicates nothing', async () => {
    const before = await rowsOf(DAY);
    await post({ date: DAY }).expect(202);
    await storedAfter(DAY, before.at);
    expect((await rowsOf(DAY)).n).toBe(5);
    expect(await dayCounts()).toEqual(EXPECTED_DAY);
  });

  it('reprocessing replaces a record whose samples changed (upsert on the record identity)', async () => {
    const samples = t.app.get(MarketSampleRepository);
    await samples.insert([sample('ETH-USDT', 'okx', DAY_START + 7_300_000, '-')]); // + + + then −: 1
    const before = await rowsOf(DAY);
    await post({ date: DAY }).expect(202);
    await storedAfter(DAY, before.at);
    expect((await rowsOf(DAY)).n).toBe(5);
    expect(await get({ from: DAY, to: DAY, ticker: 'ETH-USDT' }).expect(200)).toHaveProperty('body', [
      { ticker: 'ETH-USDT', exchange: 'okx', crossingCount: 1, days: 1 },
    ]);
  });

  it('concurrent POSTs of one date all answer 202 and leave exactly one correct record per group', async () => {
    const before = await rowsOf(DAY);
    const replies = await Promise.all(Array.from({ length: 6 }, () => post({ date: DAY })));
    expect(replies.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202]);
    await storedAfter(DAY, before.at);
    await t.app.get(CrossingCountsService).settled(DAY); // the run queued behind the first, too
    expect((await rowsOf(DAY)).n).toBe(5);
    expect((await dayCounts())[0]).toEqual(EXPECTED_DAY[0]);
  });

  it('two runs of one date at once in the database (as from two instances) give the same records', async () => {
    const worker = t.app.get(CrossingCountWorker);
    const [a, b] = await Promise.all([worker.countDay(DAY), worker.countDay(DAY)]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ processingDate: DAY, groups: 5 });
    expect((await rowsOf(DAY)).n).toBe(5);
    expect((await dayCounts())[0]).toEqual(EXPECTED_DAY[0]);
  });

  it('sums a range of days: crossingCount over the days, days = processed days with a record', async () => {
    await post({ date: NEXT_DAY }).expect(202);
    await storedAfter(NEXT_DAY, null);
    const body = await dayCounts(DAY, NEXT_DAY);
    expect(body[0]).toEqual({ ticker: 'BTC-USDT', exchange: 'binance', crossingCount: 6, days: 2 });
    expect(await dayCounts(NEXT_DAY, NEXT_DAY)).toEqual([
      { ticker: 'BTC-USDT', exchange: 'binance', crossingCount: 2, days: 1 },
    ]);
  });

  it('filters by ticker (either form, any case) and exchange (any case)', async () => {
    const res = await get({ from: DAY, to: NEXT_DAY, ticker: 'btcusdt', exchange: 'BINANCE' }).expect(200);
    expect(res.body).toEqual([{ ticker: 'BTC-USDT', exchange: 'binance', crossingCount: 6, days: 2 }]);
    const bybit = await get({ from: DAY, to: DAY, exchange: 'bybit' }).expect(200);
    expect(bybit.body).toEqual([{ ticker: 'BTC-USDT', exchange: 'bybit', crossingCount: 2, days: 1 }]);
  });

  it('GET without dates is today in São Paulo; a range with no records is []', async () => {
    await get().expect(200, []);
    await get({ from: '2020-01-01', to: '2020-01-31' }).expect(200, []);
  });

  it('a day without samples stores nothing', async () => {
    await post({ date: '2020-01-01' }).expect(202);
    await t.app.get(CrossingCountsService).settled('2020-01-01');
    expect((await rowsOf('2020-01-01')).n).toBe(0);
  });

  it('the date defaults to today in São Paulo: no body, {}, and date null', async () => {
    for (const send of [() => post(), () => post({}), () => post({ date: null })]) {
      const before = saoPauloDayOf(Date.now());
      const res = await send().expect(202);
      expect(res.body.status).toBe('accepted');
      expect([before, saoPauloDayOf(Date.now())]).toContain(res.body.processingDate);
    }
  });

  it('the 202 is sent before the work: a job that has not finished does not hold the reply', async () => {
    const worker = t.app.get(CrossingCountWorker);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started = vi.fn();
    const spy = vi.spyOn(worker, 'countDay').mockImplementation(async (processingDate: string) => {
      started();
      await gate;
      return { processingDate, groups: 0, samples: 0 };
    });
    try {
      await post({ date: '2026-01-05' }).expect(202, { processingDate: '2026-01-05', status: 'accepted' });
      await waitFor(() => Promise.resolve(started.mock.calls.length > 0 ? true : undefined));
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('both routes are in the arbitrage rate-limit group (rules: rate-limits)', async () => {
    const posted = await post({ date: DAY }).expect(202);
    const got = await get().expect(200);
    for (const res of [posted, got]) expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('a failing job is logged and counted in crossing_count_job_failures_total; the duration is a histogram', async () => {
    const failures = async (): Promise<number> => {
      const text = (await request(t.baseUrl).get('/metrics').expect(200)).text;
      return Number(/^crossing_count_job_failures_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
    };
    // Runs posted by earlier tests finish first, so exactly one run meets the broken store.
    await t.app.get(CrossingCountsService).schedule(DAY);
    const before = await failures();
    await db.query('ALTER TABLE crossing_counts RENAME TO crossing_counts_broken');
    try {
      await post({ date: DAY }).expect(202);
      await waitFor(async () => ((await failures()) === before + 1 ? true : undefined));
    } finally {
      await db.query('ALTER TABLE crossing_counts_broken RENAME TO crossing_counts');
    }
    const text = (await request(t.baseUrl).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^crossing_count_job_duration_seconds_count\{outcome="failure"\} [1-9]/m);
    expect(text).toMatch(/^crossing_count_job_duration_seconds_count\{outcome="success"\} [1-9]/m);
    expect(await dayCounts()).toHaveLength(5); // the earlier records are untouched
  });
});
