import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { row } from './opportunity-history.fixtures.js';

const BTC = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };
const DAY_S = 86_400;
/** One day ÷ 499, rounded up: the bucket width of a 1-day series. */
const BUCKET_S = 174;

describe('GET /v1/opportunity-history/series: a route\'s spread bucketed by time for a chart', () => {
  let t: TestApp;
  // A bucket start about 12 hours back: inside the 1-day look-back whenever the test runs.
  const base = Math.floor((Date.now() / 1000 - DAY_S / 2) / BUCKET_S) * BUCKET_S * 1000;
  const series = (query: Record<string, unknown>) => request(t.baseUrl).get('/v1/opportunity-history/series').query(query);

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000' });
    const rows = [
      // Bucket 0: three samples (gross 0.2, 0.6, 1.0); fees 0.1 % + 0.1 % + 1 USD of 1000 → net = gross − 0.3.
      row(base, 0.2), row(base + 10_000, 0.6), row(base + 20_000, 1.0),
      // Bucket 1 is empty; bucket 2 holds one sample.
      row(base + 2 * BUCKET_S * 1000 + 5_000, 0.5),
      // Another route at the same time: never in BTC binance → okx's series.
      row(base + 10_000, 9, { ticker: 'ETH-USDT' }),
      row(base + 10_000, 9, { buyExchange: 'okx', sellExchange: 'binance' }),
    ];
    await request(t.baseUrl).post('/v1/opportunity-history/import').send(rows).expect(200, { imported: rows.length });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gross basis: each bucket with samples, its count, lowest, average and highest spread; empty buckets absent', async () => {
    const res = await series({ ...BTC, days: 1, basis: 'gross' }).expect(200);
    expect(res.body).toEqual({
      ...BTC, days: 1, basis: 'gross', bucketSeconds: BUCKET_S,
      points: [
        { time: new Date(base).toISOString(), samples: 3, minSpread: 0.2, avgSpread: 0.6, maxSpread: 1 },
        { time: new Date(base + 2 * BUCKET_S * 1000).toISOString(), samples: 1, minSpread: 0.5, avgSpread: 0.5, maxSpread: 0.5 },
      ],
    });
  });

  it('net is the default basis: fees and the withdrawal fee on 1000 USD taken off, rounded to 8 decimals', async () => {
    const res = await series({ ticker: 'btcusdt', buy: 'binance', sell: 'okx', days: '1' }).expect(200);
    expect(res.body.basis).toBe('net');
    expect(res.body.points).toEqual([
      { time: new Date(base).toISOString(), samples: 3, minSpread: -0.1, avgSpread: 0.3, maxSpread: 0.7 },
      { time: new Date(base + 2 * BUCKET_S * 1000).toISOString(), samples: 1, minSpread: 0.2, avgSpread: 0.2, maxSpread: 0.2 },
    ]);
  });

  it('a longer look-back widens the buckets (7 days ÷ 499 → 1213 s) and every sample stays counted', async () => {
    const res = await series({ ...BTC, days: 7, basis: 'gross' }).expect(200);
    expect(res.body.bucketSeconds).toBe(Math.ceil((7 * DAY_S) / 499));
    for (const p of res.body.points) expect(Date.parse(p.time) / 1000 % res.body.bucketSeconds).toBe(0);
    expect(res.body.points.reduce((n: number, p: { samples: number }) => n + p.samples, 0)).toBe(4);
  });

  it('is in the arbitrage rate-limit group', async () => {
    const res = await series({ ...BTC, days: 1 }).expect(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('a route without samples answers no points', async () => {
    const res = await series({ ticker: 'SOL-USDT', buy: 'binance', sell: 'okx', days: 90 }).expect(200);
    expect(res.body).toMatchObject({ ticker: 'SOL-USDT', bucketSeconds: Math.ceil((90 * DAY_S) / 499), points: [] });
  });

  it('never answers more than 500 points: a sample every 100 s over a whole day', async () => {
    const now = Math.floor(Date.now() / 1000) * 1000;
    const dense = Array.from({ length: 860 }, (_, i) => row(now - 60_000 - i * 100_000, 0.4, { ticker: 'DOGE-USDT' }));
    await request(t.baseUrl).post('/v1/opportunity-history/import').send(dense).expect(200);
    const res = await series({ ticker: 'DOGE-USDT', buy: 'binance', sell: 'okx', days: 1, basis: 'gross' }).expect(200);
    expect(res.body.points.length).toBeLessThanOrEqual(500);
    expect(res.body.points.length).toBeGreaterThan(450);
    expect(res.body.points.reduce((n: number, p: { samples: number }) => n + p.samples, 0)).toBe(860);
    const times = res.body.points.map((p: { time: string }) => Date.parse(p.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each([
    ['nothing', {}, 'ticker is required'],
    ['no days', { ...BTC }, 'days is required'],
    ['a bad ticker', { ...BTC, ticker: 'BTC/', days: 1 }, 'ticker is invalid'],
    ['the same exchange twice', { ...BTC, sell: 'binance', days: 1 }, 'buy and sell must differ'],
    ['days over 90', { ...BTC, days: 91 }, 'days must be an integer from 1 to 90'],
    ['an unknown basis', { ...BTC, days: 1, basis: 'mid' }, 'basis must be net or gross'],
  ])('%s: 400 with the message', async (_name, query, message) => {
    const res = await series(query).expect(400);
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });
});
