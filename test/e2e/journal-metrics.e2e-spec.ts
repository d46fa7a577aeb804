import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/** Long-only trade of 1 bought at 100 (entry notional 100): net = result. */
const trade = (email: string, closedAt: string, result: number) => ({
  email, strategy: 'cross_exchange', asset: 'BTC', buyExchange: 'binance', sellExchange: 'okx',
  openedAt: '2017-01-01T00:00:00Z', quantity: 1, entryBuyPrice: 100, closedAt, exitSellPrice: 100 + result,
});

describe('journal summary: trade metrics and breakdown by São Paulo week or month', () => {
  let t: TestApp;
  const email = 'metrics@example.com';
  // Ten São Paulo days, 1 to 10 March 2026.
  const range = { email, from: '2026-03-01T00:00:00-03:00', to: '2026-03-11T00:00:00-03:00' };
  const summary = (query: Record<string, unknown>) => request(t.baseUrl).get('/v1/journal/summary').query({ metrics: 'true', ...query });

  beforeAll(async () => {
    t = await startTestApp();
    const ops = [
      trade(email, '2026-03-02T15:00:00Z', 10), trade(email, '2026-03-02T16:00:00Z', -3), // Monday 2 March
      trade(email, '2026-03-04T15:00:00Z', 6), trade(email, '2026-03-09T15:00:00Z', -2), // Wednesday, next Monday
      trade('dst@example.com', '2018-11-05T01:59:59Z', 1), // Sunday 4 Nov 2018, 23:59:59 at −02:00 (DST)
      trade('dst@example.com', '2018-11-05T02:00:00Z', 2), // Monday 5 Nov 2018, 00:00 at −02:00
    ];
    for (const op of ops) await request(t.baseUrl).post('/v1/journal/operations').send(op).expect(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('metrics over the closed operations; capital defaults to the entry notionals of the first day (2 × 100)', async () => {
    const { metrics } = (await summary(range).expect(200)).body;
    expect(metrics).toMatchObject({
      totalProfitUsd: 11, totalProfitPercent: 5.5, tradesPerDay: 0.4, winRate: 50, avgWinUsd: 8, avgLossUsd: -2.5,
      profitFactor: 3.2, expectancyUsd: 2.75, expectancyRatio: 1.1,
      // 210 after the first, 207 after the second: 3 below the peak, 3 ÷ 210 × 100.
      maxDrawdownUsd: 3, maxDrawdownPercent: 1.42857143, maxDrawdownStart: '2026-03-02T15:00:00.000Z', maxDrawdownEnd: '2026-03-02T16:00:00.000Z',
      // Below the 213 peak from 4 March 15:00 UTC to the end of the range (11 March 03:00 UTC).
      longestDrawdownDays: 6.5, maxConsecutiveWins: 1, maxConsecutiveLosses: 1, bestTradeUsd: 10, worstTradeUsd: -3,
      bestDay: '2026-03-02', bestDayUsd: 7, worstDay: '2026-03-09', worstDayUsd: -2,
    });
    const mean = 2.75;
    const std = Math.sqrt([10, -3, 6, -2].reduce((a, p) => a + (p - mean) ** 2, 0) / 3);
    expect(metrics.sqn).toBeCloseTo((2 * mean) / std, 7);
    expect(metrics.cagr).toBeCloseTo(((211 / 200) ** 36.5 - 1) * 100, 3);
  });

  it('one 20-minute trade over half a day: no cagr, annualised ratio or trades per day; the totals stand', async () => {
    const one = 'one-trade@example.com';
    await request(t.baseUrl).post('/v1/journal/operations').send({ ...trade(one, '2026-03-02T15:20:00Z', 2), openedAt: '2026-03-02T15:00:00Z' }).expect(201);
    const { metrics } = (await summary({ email: one, from: '2026-03-02T00:00:00-03:00', to: '2026-03-02T18:00:00-03:00' }).expect(200)).body;
    expect(metrics).toMatchObject({ totalProfitUsd: 2, totalProfitPercent: 2, cagr: null, tradesPerDay: null, sharpe: null, sortino: null, calmar: null });
  });

  it('capital measures the returns when given', async () => {
    const { metrics } = (await summary({ ...range, capital: '1000' }).expect(200)).body;
    expect(metrics).toMatchObject({ totalProfitUsd: 11, totalProfitPercent: 1.1, maxDrawdownPercent: 0.2970297 });
  });

  it('breakdown=week groups by the Monday that starts each São Paulo week; month by YYYY-MM; day by default', async () => {
    const week = (await summary({ ...range, breakdown: 'week' }).expect(200)).body.breakdown;
    expect(week).toEqual([
      { key: '2026-03-02', count: 3, grossPnl: 13, netPnl: 13, winRate: 66.66666667 },
      { key: '2026-03-09', count: 1, grossPnl: -2, netPnl: -2, winRate: 0 },
    ]);
    const month = (await summary({ ...range, breakdown: 'month' }).expect(200)).body.breakdown;
    expect(month).toEqual([{ key: '2026-03', count: 4, grossPnl: 11, netPnl: 11, winRate: 50 }]);
    const day = (await summary(range).expect(200)).body.breakdown;
    expect(day.map((d: { key: string }) => d.key)).toEqual(['2026-03-02', '2026-03-04', '2026-03-09']);
  });

  it('a 2018 week turns at São Paulo midnight under DST (02:00 UTC), as the database groups days', async () => {
    const week = (await summary({ email: 'dst@example.com', breakdown: 'week' }).expect(200)).body.breakdown;
    expect(week.map((w: { key: string; netPnl: number }) => [w.key, w.netPnl])).toEqual([['2018-10-29', 1], ['2018-11-05', 2]]);
  });

  it('no closed operation: zeros and nulls, whatever the capital', async () => {
    const without = (await summary({ email: 'nobody@example.com' }).expect(200)).body.metrics;
    // Its period is an instant: nothing to extrapolate.
    expect(without).toMatchObject({ totalProfitUsd: 0, totalProfitPercent: 0, cagr: null, tradesPerDay: null, winRate: 0, sharpe: null, sqn: null, bestDay: null });
    expect((await summary({ email: 'nobody@example.com', capital: 500 }).expect(200)).body.metrics).toEqual(without);
  });

  it.each([
    [{ email, capital: '0' }, 'capital must be a number above 0 and below 1e13'],
    [{ email, capital: 'abc' }, 'capital must be a number above 0 and below 1e13'],
    [{ email, capital: '1e13' }, 'capital must be a number above 0 and below 1e13'],
    [{ email, breakdown: 'year' }, 'breakdown must be one of day, week, month'],
  ])('%j -> 400 %s', async (query, message) => {
    expect((await summary(query).expect(400)).body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });
});
