import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/validate-env.js';
import type { Clock } from '../market-data/clock.js';
import type { FundingSnapshot } from '../market-data/market-data-source.js';
import { FundingRateBook } from '../market-data/funding-rate-book.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import { FakeMarketDataSource } from '../market-data/testing/fake-market-data-source.js';
import { FUNDING_STALE_MS } from './funding.engine.js';
import { FundingRatesService } from './funding-rates.service.js';

const T0 = Date.UTC(2026, 2, 1, 15, 0);
const HOUR_MS = 3_600_000;

function setup() {
  const clock = { t: T0, now(): number { return this.t; } } satisfies Clock & { t: number };
  const source = new FakeMarketDataSource();
  const book = new QuoteBook(new InProcessQuoteTickBus(), clock, source.marketTable);
  const config = loadConfig({ EXCHANGES: 'binance,okx', LOG_LEVEL: 'silent' });
  const fundingBook = new FundingRateBook();
  const service = new FundingRatesService(config, source, clock, book, fundingBook);
  return { clock, source, book, service, fundingBook };
}

function snap(over: Partial<FundingSnapshot>): FundingSnapshot {
  return {
    contract: 'BTCUSDT', ticker: 'BTC-USDT', fundingRate: 0.0001, intervalSeconds: 28_800, intervalSource: 'exchange',
    nextFundingTime: T0 + HOUR_MS, markPrice: 97_000, ...over,
  };
}

const all = { limit: '500' };

describe('FundingRatesService (collector + in-memory ranking)', () => {
  it('builds and sorts once per collection; requests read memory only', async () => {
    const { source, service } = setup();
    source.funding.set('binance', [snap({ fundingRate: 0.0001 }), snap({ contract: 'SOLUSDT', ticker: 'SOL-USDT', fundingRate: 0.0001, intervalSeconds: 3600 })]);
    source.funding.set('okx', [snap({ contract: 'BTC-USDT-SWAP', fundingRate: -0.0002 })]);
    await service.collect();
    const fetches = source.fundingFetches;
    const page = service.list(all);
    service.list({ exchange: 'OKX' });
    expect(source.fundingFetches).toBe(fetches);
    expect(page.data.map((e) => `${e.exchange}/${e.contract}`)).toEqual(['binance/SOLUSDT', 'binance/BTCUSDT', 'okx/BTC-USDT-SWAP']);
    expect(page).toMatchObject({ total: 3, generatedAt: new Date(T0).toISOString() });
  });

  it('one exchange failing keeps its last values, which turn stale after 15 minutes', async () => {
    const { clock, source, service } = setup();
    source.funding.set('binance', [snap({})]);
    source.funding.set('okx', [snap({ contract: 'BTC-USDT-SWAP' })]);
    await service.collect();
    source.funding.set('okx', new Error('ExchangeNotAvailable'));
    clock.t = T0 + FUNDING_STALE_MS - 1000;
    const result = await service.collect();
    expect(result).toMatchObject({ succeeded: ['binance'], failed: ['okx'], contracts: 2 });
    const okx = () => service.list({ exchange: 'okx' }).data[0];
    expect(okx()).toMatchObject({ contract: 'BTC-USDT-SWAP', stale: false, updatedAt: new Date(T0).toISOString() });
    // No new collection: the flag still turns at 15 minutes, judged when the request is served.
    clock.t = T0 + FUNDING_STALE_MS;
    expect(okx()?.stale).toBe(true);
    expect(service.list({ exchange: 'binance' }).data[0]?.stale).toBe(false);
  });

  it('derives an unstated interval from consecutive funding times (derived_schedule)', async () => {
    const { clock, source, service } = setup();
    const unstated = { intervalSeconds: null, intervalSource: 'unavailable' as const, fundingRate: 0.0001 };
    source.funding.set('binance', [snap({ ...unstated, nextFundingTime: T0 + 60_000 })]);
    await service.collect();
    expect(service.list(all).data[0]).toMatchObject({ intervalSource: 'unavailable', fundingIntervalSeconds: null, aprPercent: null });
    clock.t = T0 + 120_000; // the payment passed; the next one is announced 4 h later
    source.funding.set('binance', [snap({ ...unstated, nextFundingTime: T0 + 60_000 + 4 * HOUR_MS })]);
    await service.collect();
    const e = service.list(all).data[0];
    expect(e).toMatchObject({ intervalSource: 'derived_schedule', fundingIntervalSeconds: 14_400 });
    expect(e?.aprPercent).toBe(21.9); // 0.0001 × 2190 × 100
  });

  it('spotPrice is the fresh spot mid of the same exchange, else null', async () => {
    const { source, book, service } = setup();
    book.apply({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 97_000, ask: 97_002, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: T0 });
    source.funding.set('binance', [snap({}), snap({ contract: 'ETHUSDT', ticker: 'ETH-USDT' })]);
    source.funding.set('okx', [snap({ contract: 'BTC-USDT-SWAP' })]);
    await service.collect();
    const spot = Object.fromEntries(service.list(all).data.map((e) => [`${e.exchange}/${e.contract}`, e.spotPrice]));
    expect(spot).toEqual({ 'binance/BTCUSDT': 97_001, 'binance/ETHUSDT': null, 'okx/BTC-USDT-SWAP': null });
  });

  it('spotPrice is a price figure: in decimal, rounded once to 12 decimals', async () => {
    const { source, book, service } = setup();
    // (0.1 + 0.2) ÷ 2 = 0.15 (doubles: 0.15000000000000002); (1e-12 + 2e-12) ÷ 2 = 1.5e-12 → 0.000000000002
    book.apply({ exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 0.1, ask: 0.2, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: T0 });
    book.apply({ exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 1e-12, ask: 2e-12, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: T0 });
    source.funding.set('binance', [snap({}), snap({ contract: 'ETHUSDT', ticker: 'ETH-USDT' })]);
    await service.collect();
    const spot = Object.fromEntries(service.list(all).data.map((e) => [e.contract, e.spotPrice]));
    expect(spot).toEqual({ BTCUSDT: 0.15, ETHUSDT: 0.000000000002 });
  });

  it('before any collection: 200-shaped empty page', () => {
    const { service } = setup();
    expect(service.list({})).toMatchObject({ data: [], total: 0 });
  });

  it('publishes each collection’s rates for the sample recorder (rules: recorders) and so the calculator (rules: calculator-market-data)', async () => {
    const { source, service, fundingBook } = setup();
    source.funding.set('binance', [snap({ fundingRate: 0.00042 })]);
    source.funding.set('okx', [snap({ contract: 'BTC-USDT-SWAP', fundingRate: null })]);
    await service.collect();
    expect(fundingBook.rate('binance', 'BTC-USDT')).toBe(0.00042);
    expect(fundingBook.rate('okx', 'BTC-USDT')).toBeNull();
  });
});
