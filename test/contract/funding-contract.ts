import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtIngest } from '../../src/market-data/ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../../src/market-data/ccxt/exchange-clients.js';
import { systemClock } from '../../src/market-data/clock.js';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import type { FundingSnapshot } from '../../src/market-data/market-data-source.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

/**
 * Funding contract of one exchange: the REAL ccxt client, through the market-data source's
 * fetchFundingRates, reads back exactly the rate, interval, next time and mark price PUT into
 * the simulator (rules: operating), by the REST calls ccxt 4.5.84 makes for that exchange.
 */
const CONTRACT_IDS: Record<ExchangeName, (base: string) => string> = {
  binance: (b) => `${b}USDT`,
  bybit: (b) => `${b}USDT`,
  okx: (b) => `${b}-USDT-SWAP`,
  gate: (b) => `${b}_USDT`,
  bitget: (b) => `${b}USDT`,
  // Asset indexes, and USDC tickers: its own spec (hyperliquid.e2e-spec.ts) reads its funding.
  hyperliquid: (b) => b,
};

const NEXT = Date.UTC(2030, 0, 1, 4);

export function describeFundingContract(exchange: ExchangeName): void {
  describe(`${exchange} funding contract: ccxt 4.5.84 against the simulator`, () => {
    let sim: RunningSimulator;
    let source: CcxtIngest;

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL', 'DOGE', 'XRP'], walk: false });
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

    const put = async (items: unknown[]): Promise<void> => {
      const res = await fetch(`${sim.url}/_sim/funding`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(items) });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const read = async (base: string): Promise<FundingSnapshot | undefined> =>
      (await source.fetchFundingRates(exchange)).find((s) => s.ticker === `${base}-USDT`);

    it('reads rate, 4 h interval stated by the exchange, next funding time and mark price', async () => {
      await put([{ exchange, ticker: 'ETH-USDT', fundingRate: 0.00025, intervalHours: 4, nextFundingTime: NEXT, markPrice: 3401.5 }]);
      expect(await read('ETH')).toEqual({
        contract: CONTRACT_IDS[exchange]('ETH'), ticker: 'ETH-USDT', fundingRate: 0.00025, intervalSeconds: 14_400,
        intervalSource: 'exchange', nextFundingTime: NEXT, markPrice: 3401.5,
      });
    });

    it('reads a negative rate on a 1 h interval and a positive one on 8 h', async () => {
      await put([
        { exchange, ticker: 'SOL-USDT', fundingRate: -0.00012, intervalHours: 1, nextFundingTime: '2030-01-01T01:00:00Z' },
        { exchange, ticker: 'BTC-USDT', fundingRate: 0.0001, intervalHours: 8, nextFundingTime: Date.UTC(2030, 0, 1, 8) },
      ]);
      expect(await read('SOL')).toMatchObject({ fundingRate: -0.00012, intervalSeconds: 3600, intervalSource: 'exchange', nextFundingTime: Date.UTC(2030, 0, 1, 1) });
      expect(await read('BTC')).toMatchObject({ fundingRate: 0.0001, intervalSeconds: 28_800, intervalSource: 'exchange' });
    });

    it('an interval the exchange does not state is unavailable; a missing rate is null', async () => {
      await put([
        { exchange, ticker: 'DOGE-USDT', fundingRate: 0.0003, intervalHours: null },
        { exchange, ticker: 'XRP-USDT', fundingRate: null, intervalHours: 8 },
      ]);
      expect(await read('DOGE')).toMatchObject({ fundingRate: 0.0003, intervalSeconds: null, intervalSource: 'unavailable' });
      expect(await read('XRP')).toMatchObject({ fundingRate: null, intervalSeconds: 28_800 });
    });

    it('lists every simulated USDT perpetual, each once', async () => {
      const tickers = (await source.fetchFundingRates(exchange)).map((s) => s.ticker).sort();
      expect(tickers).toEqual(['BTC-USDT', 'DOGE-USDT', 'ETH-USDT', 'SOL-USDT', 'XRP-USDT']);
    });
  });
}
