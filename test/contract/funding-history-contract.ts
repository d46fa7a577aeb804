import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtIngest } from '../../src/market-data/ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../../src/market-data/ccxt/exchange-clients.js';
import { systemClock } from '../../src/market-data/clock.js';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from '../utils/wait.js';

/**
 * Funding-history contract of one exchange: the REAL ccxt client, through the market-data
 * source's fetchFundingHistory, reads back the simulator's settled series (the seeded 30 days,
 * paged as the venue pages, and a payment the simulator settles after a PUT /_sim/funding),
 * under the strict simulator, which must count no violation.
 */
const BASES = ['BTC', 'ETH', 'SOL', 'DOGE', 'XRP', 'ADA', 'AVAX', 'LINK'];
const DAY_MS = 86_400_000;

export function describeFundingHistoryContract(exchange: ExchangeName): void {
  describe(`${exchange} funding-history contract: ccxt 4.5.84 fetchFundingRateHistory against the strict simulator`, () => {
    let sim: RunningSimulator;
    let source: CcxtIngest;

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, symbols: BASES, walk: false, strict: true });
      source = new CcxtIngest({
        createClient: (e) => createExchangeClient(e, { simulatorUrl: sim.url }),
        clock: systemClock, silenceTimeoutMs: 30_000, backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000,
        sink: { quote: () => undefined }, onState: () => undefined,
      });
    });

    afterAll(async () => {
      await source?.close();
      await sim?.close();
    });

    const expected = (ticker: string, since: number) =>
      sim.state.funding.history(exchange, ticker).filter((s) => s.settledAt >= since).map((s) => ({ settledAt: s.settledAt, rate: s.rate }));

    it('backfills 30 days of every perpetual, each payment once and oldest first, exactly as settled', async () => {
      const since = Date.now() - 30 * DAY_MS;
      for (const base of BASES) {
        const ticker = `${base}-USDT`;
        const read = await source.fetchFundingHistory(exchange, ticker, since);
        expect(read.map((s) => ({ settledAt: s.settledAt, rate: s.rate })), ticker).toEqual(expected(ticker, since));
        const hours = sim.state.funding.get(exchange, ticker)?.intervalHours ?? 8;
        expect(read.length, ticker).toBeGreaterThanOrEqual((30 * 24) / hours - 1);
      }
    });

    it('reads a payment the simulator settles at the time and rate PUT into it', async () => {
      // Whole seconds: gate states payment times in seconds.
      const settleAt = Math.ceil((Date.now() + 300) / 1000) * 1000;
      const put = await fetch(`${sim.url}/_sim/funding`, {
        method: 'PUT', headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ exchange, ticker: 'ETH-USDT', fundingRate: -0.00042, intervalHours: 4, nextFundingTime: settleAt }]),
      });
      expect(put.status).toBe(200);
      const read = await until(() => source.fetchFundingHistory(exchange, 'ETH-USDT', Date.now() - DAY_MS), (r) => r.at(-1)?.settledAt === settleAt, 5_000, 200);
      expect(read.at(-1)).toMatchObject({ settledAt: settleAt, rate: -0.00042 });
    });

    it('stays within the venue limits: zero violations', async () => {
      const report = (await (await fetch(`${sim.url}/_sim/violations`)).json()) as { total: number; recent: unknown[] };
      expect(report.recent).toEqual([]);
      expect(report.total).toBe(0);
    });
  });
}
