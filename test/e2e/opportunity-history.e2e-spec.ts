import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';
// Imported rows may name any supported venue (rules: tickers): their message lists the registry.
import { EXCHANGE_LIST } from '../../src/market-model/exchanges.js';
import { type BacktestSample, runBacktest } from '../../src/opportunity-history/backtest.engine.js';
import { OpportunityHistoryRepository } from '../../src/opportunity-history/opportunity-history.repository.js';
import { at, designedHistory, type HistoryRow, row, STEP_MS } from './opportunity-history.fixtures.js';

const toSample = (r: HistoryRow): BacktestSample => ({
  time: Date.parse(r.time), grossSpreadPercent: r.grossSpreadPercent, buyFeePercent: r.buyFeePercent,
  sellFeePercent: r.sellFeePercent, withdrawalFeeUsd: r.withdrawalFeeUsd, feesEstimated: r.feesEstimated, executable: r.executable,
});

const BTC = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' };

describe('opportunity history: import, stats, backtest (rules: history-import, backtest)', () => {
  let t: TestApp;
  // Whole seconds two days back: inside every look-back of 2 days or more.
  const base = Math.floor((Date.now() - 2 * 86_400_000 + 3_600_000) / 1000) * 1000;

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000' });
    await importJson(designedHistory(base)).expect(200, { imported: 26 });
  });
  afterAll(async () => {
    await t.close();
  });

  const importJson = (rows: unknown) => request(t.baseUrl).post('/v1/opportunity-history/import').send(rows as object);
  const importNdjson = (text: string) =>
    request(t.baseUrl).post('/v1/opportunity-history/import').set('Content-Type', 'application/x-ndjson').send(text);
  const stats = (query: Record<string, unknown>) => request(t.baseUrl).get('/v1/opportunity-history/stats').query(query);
  const backtest = (body: Record<string, unknown>) => request(t.baseUrl).post('/v1/opportunity-history/backtest').send(body);

  describe('backtest over the designed history', () => {
    it('checks every result field', async () => {
      const res = await backtest({ ...BTC, days: 3, threshold: 0.5, basis: 'gross', transferMinutes: 1 }).expect(200);
      const body = res.body;
      expect(body).toMatchObject({
        trades: 4, completed: 1, expired: 2, unresolved: 1, skippedBusy: 2, skippedInfeasible: 1, estimatedCosts: 2,
      });
      expect(body.grossUsd).toBe(12); // A only; expired close at 0, unresolved excluded
      expect(body.netUsd).toBe(3); // 9 − 3 − 3
      expect(body.netPercent).toBe(0.3);
      expect(body.winRate).toBe(33.33333333); // 1 ÷ 3 × 100, rounded once
      expect(Object.keys(body).sort()).toEqual([
        'breakdown', 'completed', 'equityCurve', 'estimatedCosts', 'expired', 'grossUsd', 'history', 'metrics', 'netPercent', 'netUsd',
        'skippedBusy', 'skippedInfeasible', 'trades', 'unresolved', 'winRate',
      ]);
      const [a, c, e, g] = body.history;
      expect(body.history).toHaveLength(4);
      expect(a).toMatchObject({ entry: at(base, 1), arrival: at(base, 7), status: 'completed', entrySpread: 0.6, exitGrossSpread: 1.2, costsEstimated: true });
      expect(a.grossUsd).toBe(12);
      expect(a.netUsd).toBe(9);
      expect(a.netPercent).toBe(0.9);
      expect(c).toMatchObject({ entry: at(base, 13), arrival: at(base, 19), status: 'expired', entrySpread: 0.6, exitGrossSpread: 0, grossUsd: 0, costsEstimated: false });
      expect(c.netUsd).toBe(-3);
      expect(c.netPercent).toBe(-0.3);
      expect(e).toMatchObject({ entry: at(base, 19), arrival: at(base, 25), status: 'expired', exitGrossSpread: 0 });
      expect(g).toEqual({
        entry: at(base, 27), arrival: at(base, 33), status: 'unresolved', entrySpread: 0.8,
        exitGrossSpread: null, netPercent: null, grossUsd: null, netUsd: null, costsEstimated: true,
      });
    });

    it('applies the defaults: basis net, capital 1000, transfer 0', async () => {
      // Net = gross − 0.3. Threshold 0.55: windows A (i4–i7), B (i10–i11, not executable), D (i16–i17).
      // Transfer 0: A enters i4 (net 0.6), exits at 0.9 → 9 − 3 = 6; D enters i16 → 9 − 3 = 6.
      const res = await backtest({ ...BTC, days: 3, threshold: 0.55 }).expect(200);
      expect(res.body).toMatchObject({ trades: 2, completed: 2, expired: 0, unresolved: 0, skippedInfeasible: 1, skippedBusy: 0, winRate: 100 });
      expect(res.body.netUsd).toBe(12);
      expect(res.body.history[0].entry).toBe(at(base, 4));
      expect(res.body.history[0].entrySpread).toBe(0.6);
    });

    it('capital scales the net basis and the USD figures', async () => {
      // Capital 10,000, gross basis, transfer 0, threshold 1.15: only i6 (1.1)? no, only i7 (1.2).
      const res = await backtest({ ...BTC, days: 3, threshold: 1.15, basis: 'gross', capital: 10_000 }).expect(200);
      expect(res.body.trades).toBe(1);
      expect(res.body.grossUsd).toBe(120); // 10,000 × 1.2 %
      expect(res.body.netUsd).toBe(99); // − (10,000 × 0.2 % + 1)
      expect(res.body.netPercent).toBe(0.99);
    });

    it('money policy through the database: a sample exactly at the threshold is read and entered; entrySpread 0.3, not 0.30000000000000004', async () => {
      const ETH = { ticker: 'ETH-USDT', buyExchange: 'bybit', sellExchange: 'gate' };
      const start = base + 3_600_000;
      // net = gross − 0.1 − 0.1 − 0 ÷ 1000 × 100; threshold 0.1 on the net basis.
      // i0, i1: net −0.1 (below); i2: gross 0.3 → net 0.1 exactly, at the threshold (doubles
      // 0.09999999999999998: the paged read used to skip it, below after a below); i3: below.
      // i10: gross 0.5 → net 0.3 (doubles 0.30000000000000004); i11: below.
      const rows = [[0, 0.1], [1, 0.1], [2, 0.3], [3, 0.1], [10, 0.5], [11, 0.1]].map(([i, gross]) =>
        row(start + i * STEP_MS, gross, { ...ETH, withdrawalFeeUsd: 0 }),
      );
      await importJson(rows).expect(200, { imported: 6 });
      const res = await backtest({ ticker: 'ETH-USDT', buy: 'bybit', sell: 'gate', days: 3, threshold: 0.1, basis: 'net' }).expect(200);
      // transfer 0: each completes on its entry sample. i2: gross 1000 × 0.3 % = 3, costs 2, net 1 (0.1 %);
      // i10: gross 5, costs 2, net 3 (0.3 %). Totals 8, 4, 0.4 %.
      expect(res.body.history.map((o: Record<string, unknown>) => [o.entrySpread, o.exitGrossSpread, o.grossUsd, o.netUsd, o.netPercent])).toEqual([
        [0.1, 0.3, 3, 1, 0.1],
        [0.3, 0.5, 5, 3, 0.3],
      ]);
      expect(res.body).toMatchObject({ trades: 2, completed: 2, grossUsd: 8, netUsd: 4, netPercent: 0.4, winRate: 100 });
    });

    it('an unknown route or a look-back before the history answers an empty result', async () => {
      const res = await backtest({ ticker: 'SOL-USDT', buy: 'gate', sell: 'bybit', days: 1, threshold: 0 }).expect(200);
      expect(res.body).toMatchObject({
        trades: 0, completed: 0, expired: 0, unresolved: 0, skippedBusy: 0, skippedInfeasible: 0,
        estimatedCosts: 0, grossUsd: 0, netUsd: 0, netPercent: 0, winRate: 0, history: [], breakdown: [],
      });
      expect((await backtest({ ...BTC, days: 1, threshold: 0 }).expect(200)).body.trades).toBe(0);
    });
    it('the paged read skips only rows that cannot change the walk, across page boundaries', async () => {
      const repository = t.app.get(OpportunityHistoryRepository);
      const range = { from: new Date(base - 1000), to: new Date() };
      const params = { basis: 'gross' as const, threshold: 0.5, capital: 1000, transferMinutes: 1, intervalMs: STEP_MS };
      for (const pageRows of [1, 2, 3, 5]) {
        const kept: BacktestSample[] = [];
        for await (const page of repository.walkPages({ ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' }, range, params, pageRows)) kept.push(...page);
        // Every below sample here closes a window except i26, which follows i25 (below): skipped.
        expect(kept.map((k) => k.time)).not.toContain(Date.parse(at(base, 26)));
        expect(kept).toHaveLength(25);
        expect(runBacktest(kept, params)).toEqual(runBacktest(designedHistory(base).map(toSample), params));
      }
    });

    it('the read is cut into one-day slices whose first row still sees the row before it', async () => {
      const repository = t.app.get(OpportunityHistoryRepository);
      const DAY = 86_400_000;
      const from = Math.floor(Date.now() / 1000) * 1000 - 3 * DAY;
      const eth = { ticker: 'ETH-USDT' };
      // Slice boundaries at from + 1 day and from + 2 days; threshold 0.5 on the gross basis.
      const rows = [
        row(from + 1000, 1, eth), // above: kept
        row(from + DAY - STEP_MS, 0.1, eth), // below after above: kept (closes the window)
        row(from + DAY, 0.1, eth), // first of slice 2, below after below: skipped
        row(from + DAY + STEP_MS, 1, eth), // above: kept
        row(from + 2 * DAY, 0.1, eth), // first of slice 3, below after above: kept
        row(from + 2 * DAY + STEP_MS, 0.1, eth), // below after below: skipped
      ];
      await importJson(rows).expect(200);
      const params = { basis: 'gross' as const, threshold: 0.5, capital: 1000, transferMinutes: 0, intervalMs: STEP_MS };
      const range = { from: new Date(from), to: new Date(from + 3 * DAY) };
      for (const pageRows of [1, 10_000]) {
        const kept: BacktestSample[] = [];
        for await (const page of repository.walkPages({ ticker: 'ETH-USDT', buy: 'binance', sell: 'okx' }, range, params, pageRows)) kept.push(...page);
        expect(kept.map((k) => k.time)).toEqual([from + 1000, from + DAY - STEP_MS, from + DAY + STEP_MS, from + 2 * DAY]);
        expect(runBacktest(kept, params)).toEqual(runBacktest(rows.map(toSample), params));
      }
    });
  });

  describe('stats', () => {
    it('money policy: a sample exactly at the threshold counts as above; spreads are rounded once (0.3, not 0.30000000000000004)', async () => {
      const XRP = { ticker: 'XRP-USDT', buyExchange: 'binance', sellExchange: 'bybit' };
      const start = base + 3_600_000;
      // net = gross − 0.1 − 0.1 − 0: i0, i1, i3, i11 −0.1; i2 0.1 exactly (doubles 0.09999999999999998);
      // i10 0.3 (doubles 0.30000000000000004). Threshold 0.1, net basis.
      const rows = [[0, 0.1], [1, 0.1], [2, 0.3], [3, 0.1], [10, 0.5], [11, 0.1]].map(([i, gross]) =>
        row(start + i * STEP_MS, gross, { ...XRP, withdrawalFeeUsd: 0 }),
      );
      await importJson(rows).expect(200, { imported: 6 });
      const res = await stats({ ticker: 'XRP-USDT', buy: 'binance', sell: 'bybit', days: 3, threshold: 0.1 }).expect(200);
      // above: i2 and i10, two windows (i3 below between them); sorted spreads −0.1 ×4, 0.1, 0.3:
      // max 0.3, p50 (3rd of 6) −0.1, p90 (6th) 0.3, avg (−0.4 + 0.1 + 0.3) ÷ 6 = 0
      expect(res.body).toMatchObject({ samples: 6, windows: 2, maxSpread: 0.3, p50Spread: -0.1, p90Spread: 0.3, avgSpread: 0 });
      expect(res.body.minutesAbove).toBeCloseTo((2 * STEP_MS) / 60_000, 12);
    });

    it('answers every field on the gross basis (nearest-rank percentiles)', async () => {
      const res = await stats({ ticker: 'btcusdt', buy: 'BINANCE', sell: 'okx', days: '3', threshold: '0.5', basis: 'gross' }).expect(200);
      expect(res.body).toEqual({
        ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 3, threshold: 0.5, basis: 'gross',
        samples: 26,
        windows: 7, // A–G: the gap after i20 splits E from F
        minutesAbove: expect.closeTo((19 * STEP_MS) / 60_000, 9),
        maxSpread: 1.2,
        avgSpread: 0.61923077, // 16.1 ÷ 26 = 0.619230769…, rounded once
        p50Spread: 0.7, // rank ⌈0.5 × 26⌉ = 13
        p90Spread: 1.0, // rank ⌈0.9 × 26⌉ = 24
        firstSampleAt: at(base, 0),
        lastSampleAt: at(base, 28),
      });
    });

    it('defaults to the net basis (capital 1000)', async () => {
      const res = await stats({ ...BTC, days: 3, threshold: 0.55 }).expect(200);
      expect(res.body).toMatchObject({ basis: 'net', samples: 26, windows: 3 });
      expect(res.body.minutesAbove).toBeCloseTo((7 * STEP_MS) / 60_000, 9);
      expect(res.body.maxSpread).toBe(0.9);
      expect(res.body.avgSpread).toBe(0.31923077); // 16.1 ÷ 26 − 0.3 = 0.319230769…
    });

    it('irregular samples (the live recorder\'s): each holds until the next, at most one interval; gaps and a sample below end windows', async () => {
      const DOGE = { ticker: 'DOGE-USDT', buyExchange: 'okx', sellExchange: 'bybit', withdrawalFeeUsd: 0 };
      const s = base + 2 * 3_600_000;
      // ms after s → gross %. Window 1: 1000–3000 (2 s: holds 200 + 500 + 1300); window 2: the 0.8 at
      // 3500, then 35 s of nothing (> 3 × 10 s): it holds one interval, 10 s; window 3: the last sample,
      // one interval, 10 s. Time above 2 + 10 + 10 = 22 s.
      const rows = [[0, 0.1], [1000, 0.6], [1200, 0.9], [1700, 0.7], [3000, 0.2], [3500, 0.8], [38_500, 0.8]].map(([t, gross]) =>
        row(s + t, gross, DOGE),
      );
      await importJson(rows).expect(200, { imported: 7 });
      const query = { ticker: 'DOGE-USDT', buy: 'okx', sell: 'bybit', days: 3, threshold: 0.5, basis: 'gross' };
      const res = await stats(query).expect(200);
      expect(res.body).toMatchObject({ samples: 7, windows: 3, maxSpread: 0.9, firstSampleAt: new Date(s).toISOString() });
      expect(res.body.minutesAbove).toBeCloseTo(22_000 / 60_000, 12);
      // A threshold the 0.6 misses: window 1 is 1200–3000, 1.8 s.
      expect((await stats({ ...query, threshold: 0.65 }).expect(200)).body.minutesAbove).toBeCloseTo(21_800 / 60_000, 12);
      // The backtest enters the 2 s window at its first sample; with no transfer time the exit is there too.
      const now = (await backtest({ ...query, threshold: 0.5, transferMinutes: 0 }).expect(200)).body as { history: Record<string, unknown>[] };
      expect(now).toMatchObject({ trades: 3, completed: 3 });
      expect(now.history[0]).toMatchObject({ entry: new Date(s + 1000).toISOString(), entrySpread: 0.6, exitGrossSpread: 0.6 });
      // A minute in transit: entered at 1000, the window closes at 3000 before arrival (expired); the
      // two later windows pass while the capital travels (busy).
      const slow = (await backtest({ ...query, threshold: 0.5, transferMinutes: 1 }).expect(200)).body as Record<string, unknown>;
      expect(slow).toMatchObject({ trades: 1, expired: 1, skippedBusy: 2 });
    });

    it('null values and times when there are no samples', async () => {
      const res = await stats({ ticker: 'ETH-USDT', buy: 'gate', sell: 'bitget', days: 90, threshold: 0 }).expect(200);
      expect(res.body).toEqual({
        ticker: 'ETH-USDT', buy: 'gate', sell: 'bitget', days: 90, threshold: 0, basis: 'net', samples: 0, windows: 0,
        minutesAbove: 0, maxSpread: null, avgSpread: null, p50Spread: null, p90Spread: null, firstSampleAt: null, lastSampleAt: null,
      });
    });
  });

  describe('import', () => {
    const doge = (i: number, gross: number) => row(base + i * STEP_MS, gross, { ticker: 'DOGE-USDT', buyExchange: 'bybit', sellExchange: 'gate' });
    const dogeStats = async () =>
      (await stats({ ticker: 'DOGE-USDT', buy: 'bybit', sell: 'gate', days: 3, threshold: 0, basis: 'gross' }).expect(200)).body;

    it('is idempotent: same route and time → one row, the newer values win (also within one request)', async () => {
      await importJson([doge(0, 0.4), doge(1, 0.5)]).expect(200, { imported: 2 });
      await importJson([doge(1, 0.9), doge(2, 0.3), doge(2, 0.6)]).expect(200, { imported: 3 });
      const s = await dogeStats();
      expect(s.samples).toBe(3);
      expect(s.maxSpread).toBe(0.9);
      expect(s.avgSpread).toBe(0.63333333); // (0.4 + 0.9 + 0.6) ÷ 3
    });

    it('accepts NDJSON (blank lines ignored) and normalises ticker and exchange names', async () => {
      const lines = [{ ...doge(3, 0.7), ticker: 'dogeusdt', buyExchange: 'ByBit' }, doge(4, 0.2)].map((r) => JSON.stringify(r));
      await importNdjson(`${lines.join('\n')}\n\n`).expect(200, { imported: 2 });
      expect((await dogeStats()).samples).toBe(5);
    });

    it('takes bodies over the global 1 MiB limit, in several INSERT chunks (5,000 rows)', async () => {
      const rows = Array.from({ length: 5000 }, (_, i) =>
        row(base + i * STEP_MS, (i % 10) / 10, { ticker: 'XRP-USDT', buyExchange: 'okx', sellExchange: 'bitget' }));
      expect(JSON.stringify(rows).length).toBeGreaterThan(1024 * 1024);
      await importJson(rows).expect(200, { imported: 5000 });
      const s = await stats({ ticker: 'XRP-USDT', buy: 'okx', sell: 'bitget', days: 3, threshold: 0.5, basis: 'gross' }).expect(200);
      expect(s.body).toMatchObject({ samples: 5000, windows: 500, p50Spread: 0.4, p90Spread: 0.8, maxSpread: 0.9 });
    });

    it('other routes keep the 1 MiB limit (413)', async () => {
      const res = await backtest({ ...BTC, days: 3, threshold: 0.5, padding: 'x'.repeat(1024 * 1024 + 10) }).expect(413);
      expect(res.body).toEqual({ statusCode: 413, message: 'request body too large', error: 'Payload Too Large' });
    });

    it.each([
      ['a row with a bad member, naming it and its number', [doge(10, 0.5), doge(11, 0.5), { ...doge(12, 0.5), buyPrice: 0 }], 'row 3: buyPrice must be a positive number'],
      ['a missing member first', [{ ...doge(10, 0.5), time: undefined, buyPrice: -1 }], 'row 1: time is required'],
      ['null is missing', [doge(10, 0.5), { ...doge(11, 0.5), executable: null }], 'row 2: executable is required'],
      ['a time that is not RFC 3339', [{ ...doge(10, 0.5), time: '2026-03-01 12:00' }], 'row 1: time must be an RFC 3339 timestamp'],
      ['a day that does not exist', [{ ...doge(10, 0.5), time: '2026-02-30T00:00:00Z' }], 'row 1: time must be an RFC 3339 timestamp'],
      ['a bad ticker', [{ ...doge(10, 0.5), ticker: 'DOGE/USDT' }], 'row 1: ticker is invalid'],
      ['an unknown exchange', [{ ...doge(10, 0.5), sellExchange: 'kraken' }], `row 1: sellExchange must be one of ${EXCHANGE_LIST}`],
      ['the same exchange twice', [{ ...doge(10, 0.5), sellExchange: 'BYBIT' }], 'row 1: buyExchange and sellExchange must differ'],
      ['a string number', [{ ...doge(10, 0.5), grossSpreadPercent: '0.5' }], 'row 1: grossSpreadPercent must be a number'],
      ['a negative fee', [{ ...doge(10, 0.5), sellFeePercent: -0.1 }], 'row 1: sellFeePercent must be a number of 0 or more'],
      ['a non-boolean flag', [{ ...doge(10, 0.5), feesEstimated: 'no' }], 'row 1: feesEstimated must be true or false'],
      ['a negative volume', [{ ...doge(10, 0.5), volume24h: -5 }], 'row 1: volume24h must be a number of 0 or more'],
      ['a row that is not an object', [doge(10, 0.5), 7], 'row 2: must be a JSON object'],
      ['an object instead of an array', { rows: [] }, 'Invalid request body'],
    ])('400 for %s, and nothing is stored', async (_label, body, message) => {
      const res = await importJson(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      expect((await dogeStats()).samples).toBe(5);
    });

    it('400 for NDJSON with a line that is not JSON, and for more than 100,000 rows', async () => {
      const bad = await importNdjson(`${JSON.stringify(doge(10, 0.5))}\n{"time": \n`).expect(400);
      expect(bad.body.message).toBe('row 2: invalid JSON');
      const many = await importNdjson('{}\n'.repeat(100_001)).expect(400);
      expect(many.body.message).toBe('at most 100000 rows per import');
      const malformed = await request(t.baseUrl).post('/v1/opportunity-history/import').set('Content-Type', 'application/json').send('[{').expect(400);
      expect(malformed.body.message).toBe('Invalid request body');
      expect((await dogeStats()).samples).toBe(5);
    });
  });

  describe('400s with the `errors` rule body: required members first, then the `errors` rule order', () => {
    const ALL = 'binance, bybit, okx, gate, bitget';
    const full = { ...BTC, days: 3, threshold: 0.5 };
    const cases: [string, Record<string, unknown>, string][] = [
      ['nothing', {}, 'ticker is required'],
      ['no buy', { ticker: 'BTC-USDT' }, 'buy is required'],
      ['no sell', { ticker: 'BTC-USDT', buy: 'binance' }, 'sell is required'],
      ['no days', { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx' }, 'days is required'],
      ['no threshold', { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: 3 }, 'threshold is required'],
      ['a missing member before an invalid one', { ticker: 'nope', buy: 'binance', sell: 'okx', threshold: 1 }, 'days is required'],
      ['an empty ticker', { ...full, ticker: '' }, 'ticker is required'],
      ['a bad ticker', { ...full, ticker: 'BTC/USDT' }, 'ticker is invalid'],
      ['a bad ticker before a bad exchange', { ...full, ticker: 'BTCXYZ', buy: 'kraken' }, 'ticker is invalid'],
      ['an unknown buy', { ...full, buy: 'kraken', days: 500 }, `buy must be one of ${ALL}`],
      ['an unknown sell', { ...full, sell: 'kraken' }, `sell must be one of ${ALL}`],
      ['the same exchange', { ...full, sell: 'BINANCE' }, 'buy and sell must differ'],
      ['days 0', { ...full, days: 0 }, 'days must be an integer from 1 to 90'],
      ['days 91', { ...full, days: 91 }, 'days must be an integer from 1 to 90'],
      ['days 1.5', { ...full, days: 1.5 }, 'days must be an integer from 1 to 90'],
      ['threshold −0.1', { ...full, threshold: -0.1 }, 'threshold must be a number from 0 to 100'],
      ['threshold 101', { ...full, threshold: 101 }, 'threshold must be a number from 0 to 100'],
      ['an unknown basis', { ...full, basis: 'mid' }, 'basis must be net or gross'],
    ];
    const bodyOnly: [string, Record<string, unknown>, string][] = [
      ['days as a string', { ...full, days: '3' }, 'days must be an integer from 1 to 90'],
      ['threshold as a string', { ...full, threshold: '0.5' }, 'threshold must be a number from 0 to 100'],
      ['capital 9', { ...full, capital: 9 }, 'capital must be a number from 10 to 10000000'],
      ['capital 10,000,001', { ...full, capital: 10_000_001 }, 'capital must be a number from 10 to 10000000'],
      ['capital as a string', { ...full, capital: '1000' }, 'capital must be a number from 10 to 10000000'],
      ['transferMinutes −1', { ...full, transferMinutes: -1 }, 'transferMinutes must be an integer from 0 to 1440'],
      ['transferMinutes 1441', { ...full, transferMinutes: 1441 }, 'transferMinutes must be an integer from 0 to 1440'],
      ['transferMinutes 2.5', { ...full, transferMinutes: 2.5 }, 'transferMinutes must be an integer from 0 to 1440'],
      ['an unknown breakdown', { ...full, breakdown: 'year' }, 'breakdown must be day, week or month'],
    ];

    it.each([...cases, ...bodyOnly])('backtest, %s: %j → %s', async (_label, body, message) => {
      const res = await backtest(body).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });

    it.each([
      ...cases,
      ['days not a number', { ...full, days: 'abc' }, 'days must be an integer from 1 to 90'],
      ['threshold not a number', { ...full, threshold: 'x' }, 'threshold must be a number from 0 to 100'],
    ])('stats, %s: %j → %s', async (_label, query, message) => {
      const res = await stats(query).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });

    it('backtest: malformed JSON or a body that is not an object → Invalid request body', async () => {
      for (const raw of ['{"ticker": ', '[1, 2]', '"text"']) {
        const res = await request(t.baseUrl).post('/v1/opportunity-history/backtest').set('Content-Type', 'application/json').send(raw).expect(400);
        expect(res.body).toEqual({ statusCode: 400, message: 'Invalid request body', error: 'Bad Request' });
      }
    });
  });

  describe('503 when the store fails', () => {
    it('answers opportunity history unavailable on every route, and recovers', async () => {
      const db = t.app.get(DataSource);
      await db.query('ALTER TABLE opportunity_history RENAME TO opportunity_history_broken');
      try {
        const expected = { statusCode: 503, message: 'opportunity history unavailable', error: 'Service Unavailable' };
        expect((await stats({ ...BTC, days: 3, threshold: 0.5 }).expect(503)).body).toEqual(expected);
        expect((await backtest({ ...BTC, days: 3, threshold: 0.5 }).expect(503)).body).toEqual(expected);
        expect((await importJson([row(base, 0.5)]).expect(503)).body).toEqual(expected);
      } finally {
        await db.query('ALTER TABLE opportunity_history_broken RENAME TO opportunity_history');
      }
      await stats({ ...BTC, days: 3, threshold: 0.5 }).expect(200);
    });
  });
});
