import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FundingRatesService } from '../../src/funding-rates/funding-rates.service.js';
import { MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';
import { SampleRecorderJob } from '../../src/market-data/sample-recorder.job.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * GET /v1/funding-rates end to end (rules: funding, errors): the simulator's funding (PUT
 * /_sim/funding) is read by the real ccxt clients through the collector, ranked once per
 * collection and served from memory.
 */
interface Entry {
  exchange: string; contract: string; symbol: string; fundingRate: number | null; fundingIntervalSeconds: number | null;
  intervalSource: string; aprPercent: number | null; nextFundingTime: string | null; spotPrice: number | null;
  markPrice: number | null; strategy: string; updatedAt: string; stale: boolean;
}
interface Page { data: Entry[]; total: number; generatedAt: string }

const NEXT = Date.UTC(2030, 0, 1, 8);
// [exchange, base, rate, intervalHours]; APRs by hand: rate × (8760 ÷ hours) × 100.
const FUNDING: [string, string, number | null, number | null][] = [
  ['binance', 'BTC', 0.0001, 8], //   10.95
  ['binance', 'ETH', 0.0001, 4], //   21.9
  ['binance', 'SOL', -0.0002, 8], // −21.9
  ['bybit', 'BTC', 0.0001, 8], //     10.95
  ['bybit', 'ETH', 0.00005, 1], //    43.8
  ['bybit', 'SOL', null, 8], //       no rate → no APR
  ['okx', 'BTC', 0, 8], //            0, neutral
  ['okx', 'ETH', 0.0003, 8], //       32.85
  ['okx', 'SOL', -0.0001, 4], //     −21.9
  ['gate', 'BTC', 0.0001, 8], //      10.95
  ['gate', 'ETH', 0.0002, null], //   interval not stated → no APR until derived
  ['gate', 'SOL', 0.00001, 1], //     8.76
  ['bitget', 'BTC', 0.0004, 4], //    87.6
  ['bitget', 'ETH', -0.00005, 1], // −43.8
  ['bitget', 'SOL', 0.0001, 8], //    10.95
];
const RANKED = [
  'bitget/BTCUSDT', 'bybit/ETHUSDT', 'okx/ETH-USDT-SWAP', 'binance/ETHUSDT',
  'binance/BTCUSDT', 'bitget/SOLUSDT', 'bybit/BTCUSDT', 'gate/BTC_USDT', // 10.95 tie: exchange order
  'gate/SOL_USDT', 'okx/BTC-USDT-SWAP', 'binance/SOLUSDT', 'okx/SOL-USDT-SWAP', 'bitget/ETHUSDT',
  'bybit/SOLUSDT', 'gate/ETH_USDT', // no APR, last, by exchange
];

let sim: RunningSimulator;
let t: TestApp;
const key = (e: Entry): string => `${e.exchange}/${e.contract}`;

async function simCall(method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

async function get(query = ''): Promise<{ status: number; body: Page & { message?: string } }> {
  const res = await fetch(`${t.baseUrl}/v1/funding-rates${query}`);
  return { status: res.status, body: (await res.json()) as Page & { message?: string } };
}

const collect = () => t.app.get(FundingRatesService).collect();

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL'], walk: false });
  await simCall('PUT', '/_sim/funding', FUNDING.map(([exchange, base, fundingRate, intervalHours]) => ({
    exchange, ticker: `${base}-USDT`, fundingRate, intervalHours, nextFundingTime: NEXT, markPrice: base === 'BTC' ? 97_123.4 : null,
  })));
  t = await startTestApp({
    ENABLED_WEBSOCKET: '1', MARKET_SIMULATOR_URL: sim.url, SYMBOLS: 'BTC-USDT,ETH-USDT,SOL-USDT',
    FUNDING_REFRESH_MS: '500', ARBITRAGE_RATE_LIMIT: '150', SAMPLE_INTERVAL_MS: '0',
  });
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('GET /v1/funding-rates', () => {
  it('the scheduled collector fills the ranking by itself (FUNDING_REFRESH_MS)', async () => {
    await expect.poll(async () => (await get()).body.total, { timeout: 15_000, interval: 100 }).toBe(15);
  });

  it('200 envelope { data, total, generatedAt }; every 2.8 member; rate a fraction, APR a percent; UTC RFC 3339', async () => {
    // Spot mids come from the websocket quote book: wait until the collector saw them.
    await expect.poll(async () => (await collect(), (await get('?exchange=bitget&symbol=BTC')).body.data[0]?.spotPrice), { timeout: 15_000 }).not.toBeNull();
    const { status, body } = await get('?exchange=bitget&symbol=BTC');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'generatedAt', 'total']);
    expect(body.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [entry] = body.data;
    expect(Object.keys(entry ?? {}).sort()).toEqual([
      'apr1d', 'apr30d', 'apr3d', 'apr7d', 'aprPercent', 'contract', 'exchange', 'fundingIntervalSeconds', 'fundingRate',
      'intervalChangedAt', 'intervalSource', 'markPrice', 'nextFundingTime', 'settledRate', 'spotPrice', 'stability7d',
      'stale', 'strategy', 'symbol', 'updatedAt',
    ]);
    expect(entry).toMatchObject({
      exchange: 'bitget', contract: 'BTCUSDT', symbol: 'BTC-USDT', fundingRate: 0.0004, fundingIntervalSeconds: 14_400,
      intervalSource: 'exchange', aprPercent: 87.6, nextFundingTime: '2030-01-01T08:00:00.000Z',
      spotPrice: expect.closeTo(97_250, 6) as number, markPrice: 97_123.4, strategy: 'long_spot_short_perp',
      updatedAt: expect.stringMatching(/Z$/) as string, stale: false,
    });
  });

  it('orders by APR descending (signed), entries without APR last, ties by exchange then contract', async () => {
    const { body } = await get();
    expect(body.data.map(key)).toEqual(RANKED);
    expect(body.data.map((e) => e.strategy)).toEqual([
      ...Array<string>(9).fill('long_spot_short_perp'), 'neutral', ...Array<string>(3).fill('short_spot_long_perp'),
      'unavailable', 'long_spot_short_perp',
    ]);
    const bybitSol = body.data.find((e) => key(e) === 'bybit/SOLUSDT');
    const gateEth = body.data.find((e) => key(e) === 'gate/ETH_USDT');
    expect(bybitSol).toMatchObject({ fundingRate: null, aprPercent: null, fundingIntervalSeconds: 28_800, intervalSource: 'exchange' });
    expect(gateEth).toMatchObject({ fundingRate: 0.0002, aprPercent: null, fundingIntervalSeconds: null, intervalSource: 'unavailable' });
    expect(body.data.find((e) => key(e) === 'bybit/ETHUSDT')).toMatchObject({ fundingIntervalSeconds: 3600, aprPercent: 43.8 });
  });

  it('filters: exchange case-insensitive, symbol a case-insensitive substring of the pair; total before pagination', async () => {
    expect((await get('?exchange=OKX')).body.data.map(key)).toEqual(['okx/ETH-USDT-SWAP', 'okx/BTC-USDT-SWAP', 'okx/SOL-USDT-SWAP']);
    const eth = (await get('?symbol=eth')).body;
    expect(eth.total).toBe(5);
    expect(eth.data.map(key)).toEqual(RANKED.filter((k) => k.includes('ETH')));
    for (const pair of ['BTC-USDT', 'btcusdt', 'btc']) expect((await get(`?symbol=${pair}`)).body.total).toBe(5);
    const both = await get('?exchange=Gate&symbol=sol&limit=1');
    expect(both.body).toMatchObject({ total: 1, data: [{ contract: 'SOL_USDT' }] });
    expect((await get(`?symbol=${'B'.repeat(100)}`)).status).toBe(200);
  });

  it('pagination: limit default 100, offset slices the ranked list, total unchanged', async () => {
    expect((await get('?limit=4&offset=4')).body).toMatchObject({ total: 15 });
    expect((await get('?limit=4&offset=4')).body.data.map(key)).toEqual(RANKED.slice(4, 8));
    expect((await get('?limit=500&offset=14')).body.data.map(key)).toEqual(RANKED.slice(14));
    expect((await get('?offset=15')).body).toMatchObject({ total: 15, data: [] });
  });

  it('no matching data: 200 with data []', async () => {
    expect(await get('?symbol=NOPE')).toMatchObject({ status: 200, body: { data: [], total: 0 } });
  });

  it.each([
    ['?exchange=kraken', 'exchange must be one of binance, bybit, okx, gate, bitget'],
    // A parameter given empty is refused as such by the input guard, on every route.
    ['?exchange=', 'exchange must not be empty'],
    ['?exchange=kraken&limit=0', 'exchange must be one of binance, bybit, okx, gate, bitget'],
    [`?symbol=${'B'.repeat(101)}`, 'symbol must be at most 100 characters'],
    ['?limit=0', 'limit must be an integer from 1 to 500'],
    ['?limit=501', 'limit must be an integer from 1 to 500'],
    ['?limit=1.5', 'limit must be an integer from 1 to 500'],
    ['?limit=abc', 'limit must be an integer from 1 to 500'],
    ['?limit=1&limit=2', 'limit must be an integer from 1 to 500'],
    ['?offset=-1', 'offset must be an integer of 0 or more'],
    ['?offset=x', 'offset must be an integer of 0 or more'],
  ])('400 %s → %s (error body)', async (query, message) => {
    expect(await get(query)).toEqual({ status: 400, body: { statusCode: 400, message, error: 'Bad Request' } });
  });

  it('an interval the exchange does not state is derived from consecutive funding times', async () => {
    await collect();
    await simCall('PUT', '/_sim/funding', [{ exchange: 'gate', ticker: 'ETH-USDT', fundingRate: 0.0002, nextFundingTime: NEXT + 4 * 3_600_000 }]);
    await collect();
    const gateEth = (await get('?exchange=gate&symbol=ETH')).body.data[0];
    expect(gateEth).toMatchObject({ intervalSource: 'derived_schedule', fundingIntervalSeconds: 14_400, nextFundingTime: '2030-01-01T12:00:00.000Z' });
    expect(gateEth?.aprPercent).toBe(43.8); // 0.0002 × 2190 × 100
  });

  it('one exchange failing keeps its last values and the others update; they turn stale after 15 minutes', async () => {
    await simCall('POST', '/_sim/outage', { exchange: 'okx', down: true });
    await simCall('PUT', '/_sim/funding', [
      { exchange: 'okx', ticker: 'ETH-USDT', fundingRate: 0.0009 },
      { exchange: 'binance', ticker: 'BTC-USDT', fundingRate: 0.0002 },
    ]);
    expect(await collect()).toMatchObject({ failed: ['okx'], contracts: 15 });
    const okxEth = (await get('?exchange=okx&symbol=ETH')).body.data[0];
    expect(okxEth).toMatchObject({ fundingRate: 0.0003, stale: false });
    expect((await get('?exchange=binance&symbol=BTC')).body.data[0]).toMatchObject({ fundingRate: 0.0002, stale: false });

    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.parse(okxEth?.updatedAt ?? '') + 15 * 60_000);
    await collect();
    const page = (await get('?limit=500')).body.data;
    expect(page.filter((e) => e.stale).map(key).sort()).toEqual(['okx/BTC-USDT-SWAP', 'okx/ETH-USDT-SWAP', 'okx/SOL-USDT-SWAP']);
    expect(page.find((e) => key(e) === 'okx/ETH-USDT-SWAP')).toMatchObject({ fundingRate: 0.0003, updatedAt: okxEth?.updatedAt });
    await simCall('POST', '/_sim/outage', { exchange: 'okx', down: false });
  });

  it('the request never queries the exchanges: with the simulator gone it still answers from memory', async () => {
    const before = (await get('?limit=500')).body;
    await sim.close();
    const after = await get('?limit=500');
    expect(after.status).toBe(200);
    expect(after.body.data.map((e) => [key(e), e.fundingRate])).toEqual(before.data.map((e) => [key(e), e.fundingRate]));
  });

  it('429 with the `errors` rule body and Retry-After once the arbitrage group limit is spent', async () => {
    let res: Response | undefined;
    for (let i = 0; i < 200; i++) {
      res = await fetch(`${t.baseUrl}/v1/funding-rates?limit=1`);
      if (res.status === 429) break;
    }
    expect(res?.status).toBe(429);
    expect(await res?.json()).toEqual({ statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' });
    expect(Number(res?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the collected rate reaches the recorded samples (rules: recorders) and so the calculator (rules: calculator-market-data)', () => {
  it('a sample taken after a collection carries that perpetual’s latest rate', async () => {
    await collect();
    const job = t.app.get(SampleRecorderJob);
    await job.maintain();
    await job.record();
    const samples = t.app.get(MarketSampleRepository);
    const bitget = await samples.latestSample('BTC-USDT', 'bitget', new Date(Date.now() - 60_000));
    const okx = await samples.latestSample('BTC-USDT', 'okx', new Date(Date.now() - 60_000));
    const bybit = await samples.latestSample('SOL-USDT', 'bybit', new Date(Date.now() - 60_000));
    expect(bitget?.fundingRate).toBe(0.0004);
    expect(okx?.fundingRate).toBe(0);
    expect(bybit?.fundingRate).toBeNull();
  });
});
