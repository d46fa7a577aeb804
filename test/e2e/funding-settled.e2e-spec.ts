import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateFundingSettlements1764900330000 } from '../../src/database/migrations/1764900330000-create-funding-settlements.js';
import { intervalsFromTimes, settledStats } from '../../src/funding-rates/funding-history.engine.js';
import { FundingSettlementRepository } from '../../src/funding-rates/funding-settlement.repository.js';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/**
 * Settled funding end to end: the collector backfills 30 days of every perpetual from the
 * strict simulator's funding-history calls through the real ccxt clients (zero violations),
 * stores them, serves them (GET /v1/funding-rates/history), ranks with the settled figures and
 * sort keys, ranks the cross-exchange spreads and detects an interval change (last: it moves
 * okx ETH).
 */
const EXCHANGES: ExchangeName[] = ['binance', 'bybit', 'okx', 'gate', 'bitget'];
const NEXT = Date.UTC(2030, 0, 1, 8);
const DAY_MS = 86_400_000;
// Predicted funding for the spreads, [base, exchange, rate, hours]; APR = rate × 8760 ÷ hours × 100.
const FUNDING: [string, ExchangeName, number, number][] = [
  ['BTC', 'binance', 0.0001, 8], ['BTC', 'bybit', -0.0001, 8], ['BTC', 'okx', 0.0003, 8], ['BTC', 'gate', 0.0001, 8], ['BTC', 'bitget', 0.0002, 8],
  ['ETH', 'binance', 0.0001, 8], ['ETH', 'bybit', 0.0001, 8], ['ETH', 'okx', 0.0001, 8], ['ETH', 'gate', 0.0001, 8], ['ETH', 'bitget', 0.0001, 8],
  ['SOL', 'binance', 0.0002, 4], ['SOL', 'bybit', 0, 8], ['SOL', 'okx', -0.0002, 4], ['SOL', 'gate', 0, 8], ['SOL', 'bitget', 0, 8],
];

interface Entry { exchange: string; symbol: string; aprPercent: number | null; apr1d: number | null; apr3d: number | null; apr7d: number | null; apr30d: number | null; stability7d: number | null; settledRate: number | null; intervalChangedAt: string | null }
interface Settlement { exchange: string; ticker: string; settledAt: string; rate: number; intervalHours: number; markPrice: number | null }

let sim: RunningSimulator;
let t: TestApp;

async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${t.baseUrl}${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

const history = async (query: string) => (await get<Settlement[]>(`/v1/funding-rates/history?${query}`)).body;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL'], walk: false, strict: true });
  await fetch(`${sim.url}/_sim/funding`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(FUNDING.map(([base, exchange, fundingRate, intervalHours]) => ({ exchange, ticker: `${base}-USDT`, fundingRate, intervalHours, nextFundingTime: NEXT }))),
  });
  t = await startTestApp({
    ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: sim.url, SYMBOLS: 'BTC-USDT,ETH-USDT,SOL-USDT',
    FUNDING_REFRESH_MS: '500', ARBITRAGE_RATE_LIMIT: '1000', SAMPLE_INTERVAL_MS: '0',
  });
  // The backfill has landed when every perpetual's 30 days are stored and ranked.
  await until(() => get<{ data: Entry[] }>('/v1/funding-rates?limit=500'), (r) => r.body.data.length === 15 && r.body.data.every((e) => e.apr30d !== null), 60_000, 200);
}, 90_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** The simulator's own payments of a perpetual after `from`, with the intervals the service derives. */
function simSeries(exchange: ExchangeName, ticker: string, from: number) {
  const rows = sim.state.funding.history(exchange, ticker).filter((s) => s.settledAt > from);
  const intervals = intervalsFromTimes(rows.map((s) => s.settledAt), 8);
  return rows.map((s, i) => ({ settledAt: s.settledAt, rate: s.rate, intervalHours: intervals[i] ?? 8 }));
}

describe('backfill and GET /v1/funding-rates/history', () => {
  it('stores exactly the venue\'s payments of the last 7 days, oldest first, in the documented shape', async () => {
    const from = Date.now() - 7 * DAY_MS;
    const rows = await history('ticker=eth-usdt&exchange=OKX&days=7');
    const expected = simSeries('okx', 'ETH-USDT', from).filter((s) => s.settledAt > from + 5_000);
    expect(rows.filter((r) => Date.parse(r.settledAt) > from + 5_000).map((r) => ({ settledAt: Date.parse(r.settledAt), rate: r.rate, intervalHours: r.intervalHours })))
      .toEqual(expected);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['exchange', 'intervalHours', 'markPrice', 'rate', 'settledAt', 'ticker']);
    expect(rows[0]).toMatchObject({ exchange: 'okx', ticker: 'ETH-USDT' });
  });

  it('without exchange: every exchange\'s payments, oldest first', async () => {
    const rows = await history('ticker=BTCUSDT&days=1');
    expect(new Set(rows.map((r) => r.exchange))).toEqual(new Set(EXCHANGES));
    const times = rows.map((r) => Date.parse(r.settledAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('the strict simulator counted no violation during the backfill', async () => {
    const report = (await (await fetch(`${sim.url}/_sim/violations`)).json()) as { total: number; recent: unknown[] };
    expect(report).toMatchObject({ total: 0, recent: [] });
  });

  it.each([
    ['', 'ticker is required'],
    ['ticker=BTC/USDT!', 'ticker is invalid'],
    ['ticker=BTC-USDT&exchange=kraken', 'exchange must be one of binance, bybit, okx, gate, bitget'],
    ['ticker=BTC-USDT&days=0', 'days must be an integer from 1 to 90'],
    ['ticker=BTC-USDT&days=91', 'days must be an integer from 1 to 90'],
  ])('400 for %s: %s', async (query, message) => {
    const res = await get<{ message: string }>(`/v1/funding-rates/history?${query}`);
    expect(res).toEqual({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
  });
});

describe('GET /v1/funding-rates/spreads', () => {
  interface Spread { ticker: string; long: { exchange: string; apr: number; ratePerHour: number }; short: { exchange: string; apr: number }; aprSpread: number; avgAprSpread7d: number | null; basisPercent: number | null }
  const spreads = async (query = '') => (await get<{ data: Spread[]; total: number }>(`/v1/funding-rates/spreads${query}`)).body;

  it('per coin the largest APR difference, long the lower, short the higher, ranked by aprSpread', async () => {
    const body = await spreads();
    expect(body.data.map((s) => [s.ticker, s.long.exchange, s.short.exchange, s.aprSpread])).toEqual([
      ['SOL-USDT', 'okx', 'binance', 87.6],
      ['BTC-USDT', 'bybit', 'okx', 43.8],
      ['ETH-USDT', 'binance', 'bitget', 0], // equal APRs: the first two exchanges in code-unit order
    ]);
    expect(body.data[0]?.long).toMatchObject({ apr: -43.8, ratePerHour: -0.00005 });
    expect(body.data[1]?.avgAprSpread7d).toEqual(expect.any(Number));
  });

  it('minAprSpread keeps pairs at or above it; limit and offset page; total before paging', async () => {
    expect((await spreads('?minAprSpread=43.8')).data.map((s) => s.ticker)).toEqual(['SOL-USDT', 'BTC-USDT']);
    expect(await spreads('?minAprSpread=0&limit=1&offset=1')).toMatchObject({ total: 3, data: [{ ticker: 'BTC-USDT' }] });
  });

  it.each([
    ['?minAprSpread=-1', 'minAprSpread must be a number from 0 to 1000000'],
    ['?days=2', 'days must be one of 1, 3, 7, 30'],
    ['?limit=0', 'limit must be an integer from 1 to 500'],
  ])('400 for %s', async (query, message) => {
    expect((await get<{ message: string }>(`/v1/funding-rates/spreads${query}`)).body.message).toBe(message);
  });
});

describe('GET /v1/funding-rates: settled figures, sort keys, ticker', () => {
  it('every entry carries the figures of its stored payments (the engine over the venue\'s series)', async () => {
    const { body } = await get<{ data: Entry[] }>('/v1/funding-rates?limit=500');
    const now = Date.now();
    for (const e of body.data.filter((x) => x.exchange !== 'okx' || x.symbol !== 'ETH-USDT')) {
      const stats = settledStats(simSeries(e.exchange as ExchangeName, e.symbol, now - 30 * DAY_MS), now);
      expect({ apr30d: e.apr30d, settledRate: e.settledRate }, `${e.exchange} ${e.symbol}`).toEqual({ apr30d: stats.apr30d, settledRate: stats.settledRate });
    }
  });

  it('sort=absApr ranks by the size of the predicted APR; ticker filters like symbol', async () => {
    const { body } = await get<{ data: Entry[] }>('/v1/funding-rates?sort=absApr&ticker=sol-usdt');
    expect(body.data.map((e) => `${e.exchange}:${e.aprPercent}`)).toEqual(['binance:43.8', 'okx:-43.8', 'bitget:0', 'bybit:0', 'gate:0']);
  });

  it('sort=stability7d: steadiest first, nulls last', async () => {
    const { body } = await get<{ data: Entry[] }>('/v1/funding-rates?sort=stability7d&limit=500');
    const values = body.data.map((e) => e.stability7d).filter((v): v is number => v !== null);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it.each([
    ['sort=apr2d', 'sort must be one of apr, absApr, apr1d, apr3d, apr7d, apr30d, stability7d, settledRate'],
    [`ticker=${'B'.repeat(101)}`, 'ticker must be at most 100 characters'],
  ])('400 for %s', async (query, message) => {
    expect((await get<{ message: string }>(`/v1/funding-rates?${query}`)).body.message).toBe(message);
  });

  it('an interval change (8 h → 4 h) is detected, stored and shown, and the payment seen settle is stored', async () => {
    const settleAt = Math.ceil((Date.now() + 1_500) / 1000) * 1000;
    await fetch(`${sim.url}/_sim/funding`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ exchange: 'okx', ticker: 'ETH-USDT', fundingRate: 0.0005, intervalHours: 4, nextFundingTime: settleAt }]),
    });
    const { body } = await until(() => get<{ data: Entry[] }>('/v1/funding-rates?exchange=okx&ticker=ETH'), (r) => r.body.data[0]?.intervalChangedAt != null, 10_000, 100);
    expect(Date.parse(body.data[0]?.intervalChangedAt ?? '')).toBeGreaterThan(settleAt - 10_000);
    const rows = await until(() => history('ticker=ETH-USDT&exchange=okx&days=1'), (r) => r.some((s) => Date.parse(s.settledAt) === settleAt), 10_000, 100);
    expect(rows.find((s) => Date.parse(s.settledAt) === settleAt)).toMatchObject({ rate: 0.0005, intervalHours: 4 });
  });
});

describe('storage', () => {
  it('retention deletes payments older than the cutoff and keeps the rest', async () => {
    const repo = t.app.get(FundingSettlementRepository);
    const old = Date.now() - 100 * DAY_MS;
    await repo.save([{ exchange: 'gate', ticker: 'BTC-USDT', settledAt: old, rate: 0.0001, intervalHours: 8, markPrice: null }], 'venue');
    expect(await repo.deleteBefore(Date.now() - 90 * DAY_MS)).toBe(1);
    expect((await repo.history('BTC-USDT', 'gate', old - 1)).length).toBeGreaterThan(80);
  });

  it('the migration goes down and up again', async () => {
    const db = t.app.get(DataSource);
    const migration = new CreateFundingSettlements1764900330000();
    const step = async <T>(run: (r: ReturnType<DataSource['createQueryRunner']>) => Promise<T>): Promise<T> => {
      const runner = db.createQueryRunner();
      try {
        return await run(runner);
      } finally {
        await runner.release();
      }
    };
    await step((r) => migration.down(r));
    expect(await step((r) => r.hasTable('funding_settlements'))).toBe(false);
    await step((r) => migration.up(r));
    expect(await step((r) => r.hasTable('funding_settlements'))).toBe(true);
  });
});
