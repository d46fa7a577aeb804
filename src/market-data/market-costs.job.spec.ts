import { soloLease } from '../redis/testing/solo-lease.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import { MarketCostsBook } from './market-costs.book.js';
import { COSTS_REFRESH_MS, COSTS_RETRY_MS, MarketCostsJob } from './market-costs.job.js';
import type { CurrencyNetwork } from './market-data-source.js';

const config = { marketData: { websocketEnabled: true, simulatorUrl: null, exchanges: ['binance'] } } as unknown as AppConfig;
const ERC20: CurrencyNetwork = { asset: 'ETH', network: 'ERC20', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0004 };

describe('MarketCostsJob: fees and networks on their own timers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads both at start, networks every 10 min, fees every 60 min; a failure retries after 60 s and keeps the last figures', async () => {
    const calls = { fees: 0, networks: 0 };
    let networksFail = false;
    const book = new MarketCostsBook({
      fetchTradingFees: () => { calls.fees++; return Promise.resolve([{ ticker: 'ETH-USDT', takerPercent: 0.1 }]); },
      fetchNetworks: () => { calls.networks++; return networksFail ? Promise.reject(new Error('503')) : Promise.resolve([ERC20]); },
    });
    const job = new MarketCostsJob(config, book, soloLease());
    job.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual({ fees: 1, networks: 1 });
    await vi.advanceTimersByTimeAsync(COSTS_REFRESH_MS.networks);
    expect(calls).toEqual({ fees: 1, networks: 2 });
    networksFail = true;
    await vi.advanceTimersByTimeAsync(COSTS_REFRESH_MS.networks);
    expect(calls).toEqual({ fees: 1, networks: 3 });
    // The failed read kept the networks read before it.
    expect(book.transferOf({ ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'binance' }).network).toBe('ERC20');
    await vi.advanceTimersByTimeAsync(COSTS_RETRY_MS);
    expect(calls.networks).toBe(4);
    networksFail = false;
    await vi.advanceTimersByTimeAsync(COSTS_RETRY_MS);
    expect(calls.networks).toBe(5);
    // Fees were never held up by the failing networks: their hourly read comes on time.
    await vi.advanceTimersByTimeAsync(COSTS_REFRESH_MS.fees - 2 * COSTS_REFRESH_MS.networks - 2 * COSTS_RETRY_MS);
    expect(calls.fees).toBe(2);
    job.onApplicationShutdown();
    const before = { ...calls };
    await vi.advanceTimersByTimeAsync(2 * COSTS_REFRESH_MS.fees);
    expect(calls).toEqual(before);
  });

  it('with the feeds off nothing is read', async () => {
    const fetchNetworks = vi.fn(() => Promise.resolve([]));
    const job = new MarketCostsJob({ marketData: { websocketEnabled: false, simulatorUrl: null, exchanges: ['binance'] } } as unknown as AppConfig,
      new MarketCostsBook({ fetchNetworks }), soloLease());
    job.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(COSTS_REFRESH_MS.fees);
    expect(fetchNetworks).not.toHaveBeenCalled();
  });
});
