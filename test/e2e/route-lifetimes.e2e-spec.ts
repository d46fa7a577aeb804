import request from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateRouteEpisodes1764821000000 } from '../../src/database/migrations/1764821000000-create-route-episodes.js';
import { RouteEpisodesMaxSize1764900200000 } from '../../src/database/migrations/1764900200000-route-episodes-max-size.js';
import { OpportunityRecorderJob } from '../../src/opportunity-history/opportunity-recorder.job.js';
import { RouteEpisodeRepository } from '../../src/opportunity-history/route-episode.repository.js';
import type { RouteEpisode } from '../../src/opportunity-history/route-episodes.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

describe('GET /v1/opportunity-history/lifetimes', () => {
  let t: TestApp;
  const now = Date.now();
  const episode = (hoursAgo: number, lifetimeMs: number, transferable: boolean, route: Partial<RouteEpisode> = {}): RouteEpisode => ({
    ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx',
    openedAt: new Date(now - hoursAgo * HOUR_MS), closedAt: new Date(now - hoursAgo * HOUR_MS + lifetimeMs),
    peakGrossPercent: 0.4, peakNetPercent: 0.1, peakMaxSizeUsdt: null, transferable, costsEstimated: false, ...route,
  });
  const get = (query: Record<string, unknown>) => request(t.baseUrl).get('/v1/opportunity-history/lifetimes').query(query);

  beforeAll(async () => {
    t = await startTestApp({ HISTORY_RETENTION_DAYS: '30', ARBITRAGE_RATE_LIMIT: '100000' });
    await t.app.get(RouteEpisodeRepository).insert([
      // Five episodes of binance → okx in the last day, lifetimes 4 s, 1 s, 10 s, 2 s, 3 s; transferable 3 of 5.
      // Sized at their peaks: 500, none, 2000, 1000, 3000 USDT.
      episode(1, 4000, true, { peakMaxSizeUsdt: 500 }), episode(2, 1000, true), episode(3, 10_000, false, { peakMaxSizeUsdt: 2000 }),
      episode(4, 2000, true, { peakMaxSizeUsdt: 1000 }), episode(5, 3000, false, { peakMaxSizeUsdt: 3000 }),
      // Older than one day: only in a 2-day look-back.
      episode(30, 60_000, true),
      // Other routes never count.
      episode(1, 99_000, false, { sellExchange: 'bybit' }), episode(1, 99_000, false, { buyExchange: 'okx', sellExchange: 'binance' }),
      episode(1, 99_000, false, { ticker: 'ETH-USDT' }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('count, nearest-rank median and p90, transferable share over the look-back', async () => {
    // Sorted lifetimes 1, 2, 3, 4, 10 s: median = rank ⌈0.5 × 5⌉ = 3rd = 3 s; p90 = rank ⌈0.9 × 5⌉ = 5th = 10 s; 3 of 5 transferable.
    expect((await get({ ticker: 'btcusdt', buy: 'Binance', sell: 'okx', days: 1 }).expect(200)).body).toEqual({
      ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1,
      episodes: 5, medianLifetimeMs: 3000, p90LifetimeMs: 10_000, transferableShare: 0.6, transferablePercent: 60,
      // Over the four sized episodes 500, 1000, 2000, 3000: rank ⌈0.5 × 4⌉ = 2nd = 1000.
      medianMaxSizeUsdt: 1000,
    });
    // Two days: six episodes 1, 2, 3, 4, 10, 60 s: median rank 3 = 3 s, p90 rank ⌈5.4⌉ = 6th = 60 s, 4 of 6 transferable.
    expect((await get({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 2 }).expect(200)).body).toMatchObject({
      episodes: 6, medianLifetimeMs: 3000, p90LifetimeMs: 60_000, transferableShare: 4 / 6,
      // 4 ÷ 6 × 100 = 66.666666666…, rounded half up to 8 decimals once.
      transferablePercent: 66.66666667,
    });
  });

  it('a route without episodes: zero and nulls', async () => {
    expect((await get({ ticker: 'SOL-USDT', buy: 'binance', sell: 'okx', days: 90 }).expect(200)).body).toEqual({
      ticker: 'SOL-USDT', buy: 'binance', sell: 'okx', days: 90, episodes: 0, medianLifetimeMs: null, p90LifetimeMs: null, transferableShare: null,
      transferablePercent: null,
      medianMaxSizeUsdt: null,
    });
  });

  it.each([
    [{ buy: 'binance', sell: 'okx', days: 1 }, 'ticker is required'],
    [{ ticker: 'BTC-USDT', sell: 'okx', days: 1 }, 'buy is required'],
    [{ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' }, 'days is required'],
    [{ ticker: 'BTC', buy: 'binance', sell: 'okx', days: 1 }, 'ticker is invalid'],
    [{ ticker: 'BTC-USDT', buy: 'kraken', sell: 'okx', days: 1 }, 'buy must be one of binance, bybit, okx, gate, bitget'],
    [{ ticker: 'BTC-USDT', buy: 'okx', sell: 'OKX', days: 1 }, 'buy and sell must differ'],
    [{ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 91 }, 'days must be an integer from 1 to 90'],
    [{ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1.5 }, 'days must be an integer from 1 to 90'],
  ])('400 %j → %s', async (query, message) => {
    expect((await get(query).expect(400)).body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('is in the arbitrage rate-limit group', async () => {
    const res = await get({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1 }).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('storing an episode again (same route and opening) keeps one row with the newer values', async () => {
    const repo = t.app.get(RouteEpisodeRepository);
    const e = episode(6, 5000, false, { ticker: 'ADA-USDT' });
    await repo.insert([e]);
    await repo.insert([{ ...e, closedAt: new Date(e.openedAt.getTime() + 7000), transferable: true }]);
    expect((await get({ ticker: 'ADA-USDT', buy: 'binance', sell: 'okx', days: 1 }).expect(200)).body)
      .toMatchObject({ episodes: 1, medianLifetimeMs: 7000, transferableShare: 1 });
  });

  it('retention deletes episodes older than HISTORY_RETENTION_DAYS with the history', async () => {
    const repo = t.app.get(RouteEpisodeRepository);
    await repo.insert([episode(31 * 24, 1000, true, { ticker: 'DOT-USDT' }), episode(29 * 24, 1000, true, { ticker: 'DOT-USDT' })]);
    await t.app.get(OpportunityRecorderJob).purge();
    const rows = await t.app.get(DataSource).query<{ n: number }[]>(`SELECT count(*)::int4 AS n FROM route_episodes WHERE ticker = 'DOT-USDT'`);
    expect(rows[0].n).toBe(1);
    expect(DAY_MS).toBe(24 * HOUR_MS);
  });

  it('the migration reverts and re-applies', async () => {
    const migration = new CreateRouteEpisodes1764821000000();
    // One query runner at a time: the embedded database has a single connection.
    const step = async (run: (r: QueryRunner) => Promise<unknown>) => {
      const runner = t.app.get(DataSource).createQueryRunner();
      try {
        return await run(runner);
      } finally {
        await runner.release();
      }
    };
    const maxSize = new RouteEpisodesMaxSize1764900200000();
    await step((r) => maxSize.down(r));
    expect(await step((r) => r.hasColumn('route_episodes', 'peak_max_size_usdt'))).toBe(false);
    await step((r) => migration.down(r));
    expect(await step((r) => r.hasTable('route_episodes'))).toBe(false);
    await step((r) => migration.up(r));
    await step((r) => maxSize.up(r));
    expect(await step((r) => r.hasColumn('route_episodes', 'peak_max_size_usdt'))).toBe(true);
    expect((await get({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 1 }).expect(200)).body.episodes).toBe(0);
  });
});
