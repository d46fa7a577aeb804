import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../../src/market-model/exchanges.js';
import { venueOf } from '../../src/venues/registry.js';
import { MARKET_DATA_SOURCE } from '../../src/market-data/market-data.constants.js';
import type { MarketDataSource } from '../../src/market-data/market-data-source.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { OpportunityHistoryRepository } from '../../src/opportunity-history/opportunity-history.repository.js';
import { MarketCostsJob } from '../../src/market-data/market-costs.job.js';
import { OpportunityRecorderJob } from '../../src/opportunity-history/opportunity-recorder.job.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';
import { row } from './opportunity-history.fixtures.js';

const DAY_MS = 86_400_000;
const stats = (m: MarketFixture, buy: string, sell: string) =>
  request(m.app.baseUrl).get('/v1/opportunity-history/stats')
    .query({ ticker: 'BTC-USDT', buy, sell, days: 1, threshold: 0.5, basis: 'gross' });

/** Polls the stats of a route until `done` holds (the recorder runs every second here). */
async function statsUntil(m: MarketFixture, buy: string, sell: string, done: (b: { samples: number }) => boolean) {
  const read = async () => (await stats(m, buy, sell).expect(200)).body as { samples: number } & Record<string, unknown>;
  return until(read, done, 15_000);
}

/** PUT /_sim/networks on the fixture's simulator. */
const putNetworks = (m: MarketFixture, body: unknown) =>
  fetch(`${m.sim.url}/_sim/networks`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The costs recorded with the newest sample of buy → sell (optionally only at one buy price). */
async function latestCosts(m: MarketFixture, buy: string, sell: string, buyPrice?: number): Promise<Record<string, unknown> | undefined> {
  const rows = await m.app.app.get(DataSource).query<Record<string, unknown>[]>(
    `SELECT withdrawal_fee, withdrawal_fee_usd, fees_estimated, executable FROM opportunity_history
      WHERE buy_exchange = $1 AND sell_exchange = $2 AND ($3::float8 IS NULL OR buy_price = $3) ORDER BY time DESC LIMIT 1`,
    [buy, sell, buyPrice ?? null],
  );
  return rows[0];
}

/** Polls `read` until `done` holds (10 s at most). */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return until(read, done, 10_000);
}

describe('opportunity-history recorder fed by the simulator (rules: recorders)', () => {
  let m: MarketFixture;

  beforeAll(async () => {
    m = await startMarketFixture([...EXCHANGE_NAMES], ['BTC-USDT'], {
      // The smallest interval the config allows, so rounds come every second.
      HISTORY_INTERVAL_MS: '1000',
      HISTORY_MIN_SPREAD_PERCENT: '0.5',
      HISTORY_RETENTION_DAYS: '30',
      SAMPLE_INTERVAL_MS: '0',
      ARBITRAGE_RATE_LIMIT: '100000',
      // okx signs its currency call with these (the simulator accepts any); binance and bybit have none.
      OKX_API_KEY: 'e2e-key',
      OKX_API_SECRET: 'e2e-secret',
      OKX_API_PASSWORD: 'e2e-passphrase',
    });
    await m.waitConnected();
  });
  afterAll(async () => {
    await m?.close();
  });

  it('records a pushed spread of the buy → sell route, readable through the stats', async () => {
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 99.9, ask: 100 },
      { exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 101, ask: 101.1 },
    ]);
    const body = await statsUntil(m, 'binance', 'okx', (b) => b.samples >= 2);
    // (101 − 100) ÷ 100 × 100 = 1 % gross on every sample.
    expect(body).toMatchObject({ maxSpread: 1, avgSpread: 1, p50Spread: 1, p90Spread: 1, windows: 1 });
    // The stream's events and the 1 s heartbeat come at their own times (rules: windows): each sample
    // holds until the next, at most 1 s, the last one 1 s; so the time above is the span + 1 s, less
    // whatever a late heartbeat (more than 1 s after the sample before it) could not hold.
    const span = Date.parse(body.lastSampleAt as string) - Date.parse(body.firstSampleAt as string);
    expect((body.minutesAbove as number) * 60_000).toBeLessThanOrEqual(span + 1000 + 1e-6);
    expect((body.minutesAbove as number) * 60_000).toBeGreaterThan(span + 1000 - 100 * body.samples);
    // okx → binance is (99.9 − 101.1) ÷ 101.1 < 0.5 %: below HISTORY_MIN_SPREAD_PERCENT, never stored.
    expect((await stats(m, 'okx', 'binance').expect(200)).body).toMatchObject({ samples: 0, maxSpread: null });
  });

  it('the source reads every exchange\'s spot taker fee from the markets the simulator lists', async () => {
    const source = m.app.app.get<MarketDataSource>(MARKET_DATA_SOURCE);
    // BTC-USDT is listed where the venue quotes in USDT (a USDC venue lists BTC-USDC).
    const usdt = EXCHANGE_NAMES.filter((e) => (venueOf(e).quoteCurrency ?? 'USDT') === 'USDT');
    const fees = await Promise.all(usdt.map(async (e) => (await source.fetchTradingFees?.(e))?.find((f) => f.ticker === 'BTC-USDT')));
    expect(fees.every((f) => f !== undefined && f.takerPercent > 0 && f.takerPercent < 1)).toBe(true);
  });

  it('binance and bybit publish networks only with API keys: without them the source reports none known', async () => {
    const source = m.app.app.get<MarketDataSource>(MARKET_DATA_SOURCE);
    for (const exchange of ['binance', 'bybit'] as const) expect(await source.fetchNetworks?.(exchange)).toEqual([]);
    // okx's signed call is made (keys configured) and answers what was set: nothing yet.
    expect(await source.fetchNetworks?.('okx')).toEqual([]);
  });

  it('stores the exchanges\' taker fees and, with networks unknown, the `cost-defaults` rule withdrawal default, estimated', async () => {
    const [stored] = await m.app.app.get(DataSource).query<Record<string, unknown>[]>(
      `SELECT buy_price, sell_price, buy_fee_percent, sell_fee_percent, withdrawal_fee, withdrawal_fee_usd,
              fees_estimated, executable, volume_24h
         FROM opportunity_history WHERE buy_exchange = 'binance' AND sell_exchange = 'okx' ORDER BY time DESC LIMIT 1`,
    );
    // binance's and okx's published spot taker rates (0.1 %, 0.15 %) as ccxt's markets carry them.
    expect(stored).toEqual({
      buy_price: 100, sell_price: 101, buy_fee_percent: 0.1, sell_fee_percent: 0.15, withdrawal_fee: 0.01,
      withdrawal_fee_usd: 1, fees_estimated: true, executable: true, volume_24h: expect.any(Number) as number,
    });
    // The smaller of the two spot quote volumes the book holds (refreshed by REST, so not the pushed ones yet).
    const book = m.app.app.get(QuoteBook);
    const volumes = [book.volume('binance', 'SPOT', 'BTC-USDT'), book.volume('okx', 'SPOT', 'BTC-USDT')];
    expect(volumes.every((v) => v !== null && v > 0)).toBe(true);
    expect(stored?.volume_24h).toBe(Math.min(...(volumes as number[])));
  });

  it('PUT /_sim/networks drives gate\'s and bitget\'s public currency calls, and the recorded executable flag and fee', async () => {
    const source = m.app.app.get<MarketDataSource>(MARKET_DATA_SOURCE);
    const put = (body: unknown) => putNetworks(m, body);
    expect((await put([{ exchange: 'gate', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: 'yes', withdrawFee: 0 }])).status).toBe(400);
    const open = { asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: true };
    expect(await (await put([{ ...open, exchange: 'bitget', withdrawFee: 0.0005 }, { ...open, exchange: 'gate', withdrawFee: 0.0004 }])).json()).toEqual({ applied: 2 });
    const bitget = await source.fetchNetworks?.('bitget');
    const gate = await source.fetchNetworks?.('gate');
    expect(bitget).toEqual([{ asset: 'BTC', network: expect.any(String) as string, withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0005 }]);
    // gate publishes no withdrawal fee without API keys; the same network code on both sides is what matching needs.
    expect(gate).toEqual([{ asset: 'BTC', network: bitget?.[0]?.network, withdrawEnabled: true, depositEnabled: true, withdrawFee: null }]);

    await m.app.app.get(MarketCostsJob).refresh();
    await m.putQuotes([
      { exchange: 'bitget', market: 'SPOT', ticker: 'BTC-USDT', bid: 99.9, ask: 100 },
      { exchange: 'gate', market: 'SPOT', ticker: 'BTC-USDT', bid: 101, ask: 101.1 },
    ]);
    const latest = () => latestCosts(m, 'bitget', 'gate');
    await statsUntil(m, 'bitget', 'gate', (b) => b.samples >= 1);
    // Withdrawal open on bitget, deposit open on gate on one network: executable, bitget's own fee, nothing estimated.
    expect(await latest()).toEqual({ withdrawal_fee: 0.0005, withdrawal_fee_usd: 0.05, fees_estimated: false, executable: true });

    await put([{ ...open, exchange: 'gate', depositEnabled: false, withdrawFee: 0.0004 }]);
    await m.app.app.get(MarketCostsJob).refresh();
    expect(await readUntil(latest, (r) => r?.executable === false)).toMatchObject({ executable: false, withdrawal_fee: 0.0005 });
  });

  it('with okx\'s API keys, PUT /_sim/networks drives okx\'s signed currency call and the recorded withdrawal of okx → bitget', async () => {
    const source = m.app.app.get<MarketDataSource>(MARKET_DATA_SOURCE);
    const put = (body: unknown) => putNetworks(m, body);
    const okxBtc = { exchange: 'okx', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0003 };
    expect((await put([okxBtc])).status).toBe(200);
    const okx = await source.fetchNetworks?.('okx');
    const bitget = await source.fetchNetworks?.('bitget');
    // The same unified network code on both sides, from okx's `BTC-BTC` chain and bitget's `BTC`.
    expect(okx).toEqual([{ asset: 'BTC', network: bitget?.[0]?.network, withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0003 }]);

    await m.app.app.get(MarketCostsJob).refresh();
    await m.putQuotes([
      { exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 99.9, ask: 100 },
      { exchange: 'bitget', market: 'SPOT', ticker: 'BTC-USDT', bid: 101, ask: 101.1 },
    ]);
    // Earlier rounds recorded this route against bitget's initial quote; wait for one at the pushed prices.
    const until = (done: (r: Record<string, unknown> | undefined) => boolean) => readUntil(() => latestCosts(m, 'okx', 'bitget', 100), done);
    // okx's own withdrawal fee on the network bitget accepts deposits on; nothing estimated.
    expect(await until((r) => r !== undefined)).toEqual({ withdrawal_fee: 0.0003, withdrawal_fee_usd: 0.03, fees_estimated: false, executable: true });

    await put([{ ...okxBtc, withdrawEnabled: false }]);
    await m.app.app.get(MarketCostsJob).refresh();
    expect(await until((r) => r?.executable === false)).toMatchObject({ executable: false, withdrawal_fee: 0.0003, fees_estimated: false });
  });

  it('retention deletes rows older than HISTORY_RETENTION_DAYS and keeps the rest', async () => {
    const now = Date.now();
    const old = [row(now - 31 * DAY_MS, 2, { ticker: 'ETH-USDT' }), row(now - 40 * DAY_MS, 2, { ticker: 'ETH-USDT' })];
    const kept = row(now - 29 * DAY_MS, 2, { ticker: 'ETH-USDT' });
    await request(m.app.baseUrl).post('/v1/opportunity-history/import').send([...old, kept]).expect(200);
    await m.app.app.get(OpportunityRecorderJob).purge();
    const times = await m.app.app.get(DataSource).query<{ time: Date }[]>(
      `SELECT time FROM opportunity_history WHERE ticker = 'ETH-USDT' ORDER BY time`,
    );
    expect(times.map((r) => new Date(r.time).toISOString())).toEqual([kept.time]);
    // The live route's recent rows are untouched.
    expect((await stats(m, 'binance', 'okx').expect(200)).body.samples).toBeGreaterThan(0);
  });

  it('deletes in chunks, route by route along the primary key, counting every row', async () => {
    const now = Date.now();
    const cutoff = now - 50 * DAY_MS;
    const days = (route: Partial<Parameters<typeof row>[2]>, ages: number[]) => ages.map((d) => row(now - d * DAY_MS, 2, route));
    const sol = { ticker: 'SOL-USDT' };
    const ada = { ticker: 'ADA-USDT', buyExchange: 'okx', sellExchange: 'binance' };
    await request(m.app.baseUrl).post('/v1/opportunity-history/import')
      .send([...days(sol, [51, 52, 53, 54, 55, 49]), ...days(ada, [60, 61, 62, 10])]).expect(200);
    // Chunks of 2 rows: SOL needs three statements, ADA two; 5 + 3 rows are older than the cut-off.
    expect(await m.app.app.get(OpportunityHistoryRepository).deleteBefore(new Date(cutoff), 2)).toBe(8);
    const left = await m.app.app.get(DataSource).query<{ ticker: string; n: number }[]>(
      `SELECT ticker, count(*)::int4 AS n FROM opportunity_history WHERE ticker IN ('SOL-USDT', 'ADA-USDT') GROUP BY ticker ORDER BY ticker`,
    );
    expect(left).toEqual([{ ticker: 'ADA-USDT', n: 1 }, { ticker: 'SOL-USDT', n: 1 }]);
  });
});
