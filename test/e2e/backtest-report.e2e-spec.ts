import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calendarDaysBetween, saoPauloDayOf, saoPauloPeriodOf } from '../../src/common/time/sao-paulo.js';
import { OpportunityHistoryRepository } from '../../src/opportunity-history/opportunity-history.repository.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { at, designedHistory } from './opportunity-history.fixtures.js';

const BTC = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };
const DAY = 86_400_000;
const RATE_LIMIT = '100000';

interface SweepRow { threshold: number; transferMinutes: number; trades: number; netUsd: number; maxDrawdownUsd: number; sharpe: number | null }

describe('backtest reports: metrics, equity curve, breakdown and the parameter sweep', () => {
  let t: TestApp;
  // Whole seconds two days back: inside every look-back of 2 days or more.
  const base = Math.floor((Date.now() - 2 * DAY + 3_600_000) / 1000) * 1000;
  const backtest = (body: Record<string, unknown>) => request(t.baseUrl).post('/v1/opportunity-history/backtest').send(body);
  const sweep = (body: Record<string, unknown>) => request(t.baseUrl).post('/v1/opportunity-history/backtest/sweep').send(body);

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: RATE_LIMIT });
    await request(t.baseUrl).post('/v1/opportunity-history/import').send(designedHistory(base)).expect(200, { imported: 26 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the backtest answer gains metrics, equityCurve and breakdown', () => {
    // Gross 0.5, transfer 1 min: A +9 (arrives i7), C −3 (i19), E −3 (i25); G is unresolved and left out.
    const request3 = { ...BTC, days: 3, threshold: 0.5, basis: 'gross', transferMinutes: 1 };
    const arrivals: [number, number][] = [[7, 9], [19, -3], [25, -3]];

    it('computes every metric of the three settled operations', async () => {
      const days = calendarDaysBetween(saoPauloDayOf(Date.now() - 3 * DAY), saoPauloDayOf(Date.now()));
      const { metrics } = (await backtest(request3).expect(200)).body;
      expect(metrics).toMatchObject({
        totalProfitUsd: 3, totalProfitPercent: 0.3, tradesPerDay: 1, winRate: 33.33333333,
        avgWinUsd: 9, avgLossUsd: -3, profitFactor: 1.5, expectancyUsd: 1, expectancyRatio: 0.33333333,
        // mean 1, sample std √48: √3 × 1 ÷ √48 = 0.25.
        sqn: 0.25, sortino: null,
        maxDrawdownUsd: 6, maxDrawdownPercent: 0.59464817, maxDrawdownStart: at(base, 7), maxDrawdownEnd: at(base, 25),
        maxConsecutiveWins: 1, maxConsecutiveLosses: 2, bestTradeUsd: 9, worstTradeUsd: -3,
      });
      // One day with a 0.3 % return among `days` calendar days: mean ÷ std × √365 = √(365 ÷ days).
      expect(metrics.sharpe).toBeCloseTo(Math.sqrt(365 / days), 6);
      expect(metrics.cagr).toBeCloseTo((1.003 ** (365 / 3) - 1) * 100, 4);
      expect(metrics.calmar).toBeCloseTo(metrics.cagr / ((6 / 1009) * 100), 4);
      // The drawdown from the 1009 peak never recovers: it lasts to the end of the look-back.
      expect(metrics.longestDrawdownDays).toBeGreaterThan((Date.now() - Date.parse(at(base, 7))) / DAY - 0.01);
      const byDay = new Map<string, number>();
      for (const [i, p] of arrivals) byDay.set(saoPauloDayOf(Date.parse(at(base, i))), (byDay.get(saoPauloDayOf(Date.parse(at(base, i)))) ?? 0) + p);
      const dayResults = [...byDay.entries()];
      const best = dayResults.reduce((a, b) => (b[1] > a[1] ? b : a));
      const worst = dayResults.reduce((a, b) => (b[1] < a[1] ? b : a));
      expect([metrics.bestDay, metrics.bestDayUsd, metrics.worstDay, metrics.worstDayUsd]).toEqual([...best, ...worst]);
    });

    it('the equity curve starts at the capital and steps at each arrival; the breakdown groups by São Paulo period', async () => {
      const body = (await backtest({ ...request3, capital: 2000, breakdown: 'month' }).expect(200)).body;
      expect(body.equityCurve[0].equityUsd).toBe(2000);
      expect(Date.parse(body.equityCurve[0].time)).toBeGreaterThan(Date.now() - 3 * DAY - 60_000);
      // The look-back is cut into 499 spans of about 8.7 minutes; the three arrivals lie within 3 minutes, so the
      // span that holds the last keeps only it (two spans if a boundary falls between them).
      // Capital 2000: A nets 24 − 5 = 19, C and E −5 each.
      const steps = [{ time: at(base, 7), equityUsd: 2019 }, { time: at(base, 19), equityUsd: 2014 }, { time: at(base, 25), equityUsd: 2009 }];
      expect(body.equityCurve.at(-1)).toEqual(steps[2]);
      expect(body.equityCurve.length).toBeLessThanOrEqual(3);
      for (const point of body.equityCurve.slice(1)) expect(steps).toContainEqual(point);
      const months = new Set(arrivals.map(([i]) => saoPauloPeriodOf(saoPauloDayOf(Date.parse(at(base, i))), 'month')));
      expect(body.breakdown.map((r: { period: string }) => r.period)).toEqual([...months].sort());
      expect(body.breakdown.reduce((sum: number, r: { trades: number }) => sum + r.trades, 0)).toBe(3);
      const daily = (await backtest(request3).expect(200)).body.breakdown;
      expect(daily[0].period).toBe(saoPauloDayOf(Date.parse(at(base, 7))));
    });

    it('no operation: zero figures and nulls, a one-point curve, an empty breakdown', async () => {
      const body = (await backtest({ ...BTC, days: 3, threshold: 50 }).expect(200)).body;
      expect(body.metrics).toMatchObject({ totalProfitUsd: 0, cagr: 0, sharpe: null, sqn: null, profitFactor: null, bestDay: null, maxDrawdownStart: null });
      expect(body.equityCurve).toHaveLength(1);
      expect(body.breakdown).toEqual([]);
    });
  });

  describe('POST /v1/opportunity-history/backtest/sweep', () => {
    const thresholds = [0.5, 0.55, 0.7, 0.9];
    const transferMinutes = [0, 1, 2];

    it.each(['gross', 'net'])('each row equals the backtest run with its parameters (%s basis), from ONE walk of the look-back', async (basis) => {
      const walks = vi.spyOn(t.app.get(OpportunityHistoryRepository), 'walkPages');
      const res = await sweep({ ...BTC, days: 3, basis, capital: 1500, thresholds, transferMinutes }).expect(200);
      expect(walks).toHaveBeenCalledTimes(1);
      walks.mockRestore();
      const rows = res.body.rows as SweepRow[];
      expect(rows).toHaveLength(thresholds.length * transferMinutes.length);
      for (const threshold of thresholds) {
        for (const transfer of transferMinutes) {
          const one = (await backtest({ ...BTC, days: 3, basis, capital: 1500, threshold, transferMinutes: transfer }).expect(200)).body;
          expect(rows.find((r) => r.threshold === threshold && r.transferMinutes === transfer)).toEqual({
            threshold, transferMinutes: transfer, trades: one.trades, netUsd: one.netUsd,
            maxDrawdownUsd: one.metrics.maxDrawdownUsd, sharpe: one.metrics.sharpe,
          });
        }
      }
      expect(new Set(rows.map((r) => r.netUsd)).size).toBeGreaterThan(1);
    });

    it('ranks best first by sort: netUsd by default, least drawdown, most trades; ties by threshold then transfer', async () => {
      const body = { ...BTC, days: 3, basis: 'gross', thresholds, transferMinutes };
      const byNet = (await sweep(body).expect(200)).body.rows as SweepRow[];
      const tie = (a: SweepRow, b: SweepRow): number => a.threshold - b.threshold || a.transferMinutes - b.transferMinutes;
      expect(byNet).toEqual([...byNet].sort((a, b) => b.netUsd - a.netUsd || tie(a, b)));
      const byDrawdown = (await sweep({ ...body, sort: 'maxDrawdownUsd' }).expect(200)).body.rows as SweepRow[];
      expect(byDrawdown).toEqual([...byNet].sort((a, b) => a.maxDrawdownUsd - b.maxDrawdownUsd || tie(a, b)));
      const byTrades = (await sweep({ ...body, sort: 'trades' }).expect(200)).body.rows as SweepRow[];
      expect(byTrades).toEqual([...byNet].sort((a, b) => b.trades - a.trades || tie(a, b)));
    });

    it('is in the arbitrage rate-limit group', async () => {
      const res = await sweep({ ...BTC, days: 1, thresholds: [1], transferMinutes: [0] }).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe(RATE_LIMIT);
    });

    const full = { ...BTC, days: 3, thresholds: [0.5], transferMinutes: [0] };
    it.each([
      ['no thresholds', { ...BTC, days: 3, transferMinutes: [0] }, 'thresholds is required'],
      ['no transferMinutes', { ...BTC, days: 3, thresholds: [0.5] }, 'transferMinutes is required'],
      ['a bad ticker first', { ...full, ticker: 'BTC/USDT', thresholds: 'x' }, 'ticker is invalid'],
      ['thresholds not an array', { ...full, thresholds: 0.5 }, 'thresholds must be an array of 1 to 20 numbers from 0 to 100'],
      ['no threshold', { ...full, thresholds: [] }, 'thresholds must be an array of 1 to 20 numbers from 0 to 100'],
      ['21 thresholds', { ...full, thresholds: Array.from({ length: 21 }, (_, i) => i / 10) }, 'thresholds must be an array of 1 to 20 numbers from 0 to 100'],
      ['a threshold above 100', { ...full, thresholds: [0.5, 101] }, 'thresholds must be an array of 1 to 20 numbers from 0 to 100'],
      ['a threshold as text', { ...full, thresholds: ['0.5'] }, 'thresholds must be an array of 1 to 20 numbers from 0 to 100'],
      ['a repeated threshold', { ...full, thresholds: [0.5, 0.5] }, 'thresholds must not repeat a value'],
      ['11 transfer times', { ...full, transferMinutes: Array.from({ length: 11 }, (_, i) => i) }, 'transferMinutes must be an array of 1 to 10 integers from 0 to 1440'],
      ['a fractional transfer time', { ...full, transferMinutes: [1.5] }, 'transferMinutes must be an array of 1 to 10 integers from 0 to 1440'],
      ['a repeated transfer time', { ...full, transferMinutes: [5, 5] }, 'transferMinutes must not repeat a value'],
      ['an unknown basis', { ...full, basis: 'mid' }, 'basis must be net or gross'],
      ['capital 9', { ...full, capital: 9 }, 'capital must be a number from 10 to 10000000'],
      ['an unknown sort', { ...full, sort: 'sortino' }, 'sort must be one of netUsd, trades, maxDrawdownUsd, sharpe'],
    ])('400, %s: %j → %s', async (_label, body, message) => {
      expect((await sweep(body).expect(400)).body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });

    it('accepts the largest sweep, 20 thresholds × 10 transfer times', async () => {
      const res = await sweep({
        ...BTC, days: 3, thresholds: Array.from({ length: 20 }, (_, i) => i / 10), transferMinutes: Array.from({ length: 10 }, (_, i) => i),
      }).expect(200);
      expect(res.body.rows).toHaveLength(200);
    });
  });
});
