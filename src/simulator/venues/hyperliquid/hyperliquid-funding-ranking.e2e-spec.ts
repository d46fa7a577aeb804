import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FundingRatesService } from '../../../funding-rates/funding-rates.service.js';
import { startSimulator, type RunningSimulator } from '../../../simulator/simulator.js';
import { startTestApp, type TestApp } from '../../../../test/utils/test-app.js';

/**
 * hyperliquid in the funding ranking (EXCHANGES names it beside binance): its rates are read by the
 * real ccxt client from the simulator's `metaAndAssetCtxs`, each with the hourly interval ccxt
 * states, and its APR is computed on that hour: rate × 8,760 × 100, not the 8-hour figure.
 */
interface Entry {
  exchange: string; contract: string; symbol: string; fundingRate: number | null; fundingIntervalSeconds: number | null;
  intervalSource: string; aprPercent: number | null; markPrice: number | null;
}

let sim: RunningSimulator;
let t: TestApp;

async function simCall(method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'PEPE'], walk: false });
  await simCall('PUT', '/_sim/funding', [
    // APRs by hand: rate × (8,760 ÷ 1 h) × 100.
    { exchange: 'hyperliquid', ticker: 'ETH-USDT', fundingRate: 0.0000125, markPrice: 3401.5 }, // 10.95
    { exchange: 'hyperliquid', ticker: 'PEPE-USDT', fundingRate: -0.00005, markPrice: 0.0000182 }, // −43.8
    { exchange: 'binance', ticker: 'ETH-USDT', fundingRate: 0.0001, intervalHours: 8 }, // 10.95 on 8 h
  ]);
  t = await startTestApp({
    MARKET_SIMULATOR_URL: sim.url, EXCHANGES: 'binance,hyperliquid', SYMBOLS: 'BTC-USDT,ETH-USDT',
    FUNDING_REFRESH_MS: '500', SAMPLE_INTERVAL_MS: '0',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('GET /v1/funding-rates with hyperliquid', () => {
  it('lists its perpetuals with a 1 h interval stated by the venue and an APR on it; kPEPE per PEPE', async () => {
    await t.app.get(FundingRatesService).collect();
    const res = await fetch(`${t.baseUrl}/v1/funding-rates?limit=100`);
    expect(res.status).toBe(200);
    const entries = ((await res.json()) as { data: Entry[] }).data.filter((e) => e.exchange === 'hyperliquid');
    expect(entries.find((e) => e.symbol === 'ETH-USDC')).toMatchObject({
      contract: '1', fundingRate: 0.0000125, fundingIntervalSeconds: 3600, intervalSource: 'exchange', aprPercent: 10.95, markPrice: 3401.5,
    });
    // kPEPE marks 0.0182 USDC per 1,000 PEPE: 0.0000182 per PEPE, in decimal.
    expect(entries.find((e) => e.symbol === 'PEPE-USDC')).toMatchObject({ fundingRate: -0.00005, fundingIntervalSeconds: 3600, aprPercent: -43.8, markPrice: 0.0000182 });
    expect(entries.map((e) => e.symbol).sort()).toEqual(['BTC-USDC', 'ETH-USDC', 'PEPE-USDC']);
    // binance's ETH on 8 h at 0.0001 has the same APR as hyperliquid's hourly 0.0000125: both 10.95.
    expect(((await (await fetch(`${t.baseUrl}/v1/funding-rates?limit=100`)).json()) as { data: Entry[] }).data
      .find((e) => e.exchange === 'binance' && e.symbol === 'ETH-USDT')).toMatchObject({ fundingIntervalSeconds: 28_800, aprPercent: 10.95 });
  });
});
