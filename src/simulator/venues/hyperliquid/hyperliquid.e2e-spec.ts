import type { Exchange, MarketInterface } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CcxtIngest } from '../../../market-data/ccxt/ccxt-ingest.js';
import { symbolsByTicker, toListings } from '../../../market-data/ccxt/ccxt-markets.js';
import { createExchangeClient } from '../../../market-data/ccxt/exchange-clients.js';
import { RestGate, RestPausedError } from '../../../market-data/ccxt/rest-gate.js';
import { systemClock } from '../../../market-data/clock.js';
import { multiplierOfCcxtSymbol } from '../../../market-model/ticker.js';
import { startSimulator, type RunningSimulator } from '../../../simulator/simulator.js';
import { venueOf } from '../../../venues/registry.js';
import { until } from '../../../../test/utils/wait.js';

/**
 * hyperliquid through the REAL ccxt 4.5.84 pro client, built by the service's factory, against the
 * strict simulator: its markets (USDC spot and USDC perpetuals, the `kPEPE` thousand-unit lot), its
 * quotes read from `l2Book` by the service's feeds, books of at most 20 levels, hourly funding and
 * its history, and its error frame, connection cap and REST limit.
 */
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface Quote { index: number; bid: number; ask: number; bidQty: number; askQty: number }

describe('hyperliquid contract: ccxt 4.5.84 against the strict simulator', () => {
  const venue = venueOf('hyperliquid');
  let sim: RunningSimulator;
  let source: CcxtIngest;
  const clients: Exchange[] = [];
  const quotes: Quote[] = [];

  const client = (): Exchange => {
    const c = createExchangeClient('hyperliquid', { simulatorUrl: sim.url });
    clients.push(c);
    return c;
  };
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(200);
    return res.json();
  };
  const restCalls = async (): Promise<number> => ((await control('GET', '/_sim/rest-calls')) as Record<string, number[]>).hyperliquid?.length ?? 0;
  const failure = (p: Promise<unknown>): Promise<Error> => p.then(() => new Error('resolved'), (err: unknown) => (err instanceof Error ? err : new Error(String(err))));

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL', 'PEPE'], walk: false, strict: true });
    source = new CcxtIngest({
      createClient: (e) => createExchangeClient(e, { simulatorUrl: sim.url }),
      clock: systemClock, silenceTimeoutMs: 30_000, backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000,
      sink: { quote: (index, bid, ask, bidQty, askQty) => quotes.push({ index, bid, ask, bidQty, askQty }) },
      onState: () => undefined,
    });
  });

  afterAll(async () => {
    await source?.close();
    await Promise.all(clients.map((c) => c.close()));
    await sim?.close();
  });

  describe('markets', () => {
    let markets: Record<string, MarketInterface | undefined>;

    it('loads spot and the main dex\'s perpetuals in two `info` calls, no HIP-3 dex', async () => {
      const before = await restCalls();
      const c = client();
      markets = await c.loadMarkets();
      expect(await restCalls()).toBe(before + 2);
    });

    it('perpetuals are USDC-settled linear swaps named by coin, their id the asset index', () => {
      expect(markets['BTC/USDC:USDC']).toMatchObject({ id: '0', baseName: 'BTC', swap: true, linear: true, settle: 'USDC', contractSize: 1 });
      expect(markets['ETH/USDC:USDC']).toMatchObject({ id: '1', baseName: 'ETH' });
    });

    it('`kPEPE` is read as the 1,000-unit lot `1000PEPE`, the venue\'s coin name kept for its channels', () => {
      const pepe = markets['1000PEPE/USDC:USDC'];
      expect(pepe).toMatchObject({ baseName: 'kPEPE', base: '1000PEPE', settle: 'USDC' });
      expect(markets['KPEPE/USDC:USDC']).toBeUndefined();
      expect(multiplierOfCcxtSymbol('1000PEPE/USDC:USDC')).toBe(1000);
      expect(symbolsByTicker(markets, 'USDC').get('FUTURES|PEPE-USDC')).toBe('1000PEPE/USDC:USDC');
    });

    it('spot pairs are `@<index>` against USDC; Unit-bridged tokens (`UBTC`) read as the coin', () => {
      expect(markets['BTC/USDC']).toMatchObject({ id: '@0', baseName: 'UBTC', spot: true, quote: 'USDC' });
      expect(markets['PEPE/USDC']).toMatchObject({ id: '@3', baseName: 'PEPE' });
    });

    it('the service lists its markets as USDC tickers (its folder\'s quoteCurrency); the USDT rule alone lists no perpetual', async () => {
      const listed = await source.listMarkets('hyperliquid');
      expect(venue.quoteCurrency).toBe('USDC');
      expect(listed).toEqual(expect.arrayContaining([
        { market: 'FUTURES', ticker: 'BTC-USDC' }, { market: 'FUTURES', ticker: 'PEPE-USDC' }, { market: 'SPOT', ticker: 'BTC-USDC' }, { market: 'SPOT', ticker: 'PEPE-USDC' },
      ]));
      expect(listed).toHaveLength(8);
      expect(toListings(markets).filter((l) => l.market === 'FUTURES')).toEqual([]);
    });

    it('an on-chain venue lists no networks and makes no call for them', async () => {
      const before = await restCalls();
      expect(await source.fetchNetworks('hyperliquid')).toEqual([]);
      expect(await restCalls()).toBe(before);
    });
  });

  describe('quotes from l2Book, through the service\'s feeds', () => {
    it('a perpetual and a spot quote PUT into the simulator reach the sink per unit of the asset', async () => {
      source.watch('hyperliquid', 'FUTURES', ['BTC-USDC', 'PEPE-USDC'], [10, 11]);
      source.watch('hyperliquid', 'SPOT', ['ETH-USDC'], [12]);
      await until(() => new Set(quotes.map((q) => q.index)).size, (n) => n === 3, 10_000, 20);
      await control('PUT', '/_sim/quotes', [
        { exchange: 'hyperliquid', market: 'FUTURES', ticker: 'BTC-USDT', bid: 97_001.1, ask: 97_001.3, bidQty: 0.5, askQty: 0.25 },
        { exchange: 'hyperliquid', market: 'FUTURES', ticker: 'PEPE-USDT', bid: 0.0000181, ask: 0.0000182, bidQty: 5_000_000, askQty: 2_000_000 },
        { exchange: 'hyperliquid', market: 'SPOT', ticker: 'ETH-USDT', bid: 3_401.25, ask: 3_401.5, bidQty: 2, askQty: 3 },
      ]);
      const btc = await until(() => quotes.findLast((q) => q.index === 10), (q) => q?.bid === 97_001.1, 5_000, 10);
      expect(btc).toEqual({ index: 10, bid: 97_001.1, ask: 97_001.3, bidQty: 0.5, askQty: 0.25 });
      // kPEPE is priced per 1,000 PEPE (0.0181) and sized in thousands (5,000): per unit again here.
      const pepe = await until(() => quotes.findLast((q) => q.index === 11), (q) => q !== undefined && Math.abs(q.bid - 0.0000181) < 1e-12, 5_000, 10);
      expect(pepe?.ask).toBeCloseTo(0.0000182, 12);
      expect(pepe).toMatchObject({ bidQty: 5_000_000, askQty: 2_000_000 });
      const eth = await until(() => quotes.findLast((q) => q.index === 12), (q) => q?.bid === 3_401.25, 5_000, 10);
      expect(eth).toEqual({ index: 12, bid: 3_401.25, ask: 3_401.5, bidQty: 2, askQty: 3 });
    });
  });

  describe('books', () => {
    it('watchOrderBook at the descriptor\'s limit holds at most 20 levels a side, the top 20 of the simulated book', async () => {
      const c = client();
      const { limit } = venue.depth;
      expect(limit).toBe(20);
      const levels = Array.from({ length: 25 }, (_, k) => k);
      const book = {
        bids: levels.map((k) => [Number((3_400 - k * 0.1).toFixed(1)), Number((1 + k * 0.1).toFixed(1))]),
        asks: levels.map((k) => [Number((3_400.1 + k * 0.1).toFixed(1)), Number((2 + k * 0.1).toFixed(1))]),
      };
      void c.watchOrderBook('ETH/USDC:USDC', limit).catch(() => undefined);
      await until(() => c.orderbooks['ETH/USDC:USDC'], (b) => b !== undefined, 5_000, 10);
      await control('PUT', '/_sim/books', [{ exchange: 'hyperliquid', market: 'FUTURES', ticker: 'ETH-USDT', ...book }]);
      const seen = await until(() => c.orderbooks['ETH/USDC:USDC'], (b) => b?.bids[0]?.[0] === 3_400, 5_000, 10);
      expect(seen?.bids).toHaveLength(20);
      expect(seen?.asks).toHaveLength(20);
      expect(seen?.bids.map(([p, a]) => [p, a])).toEqual(book.bids.slice(0, 20));
      expect(seen?.asks.map(([p, a]) => [p, a])).toEqual(book.asks.slice(0, 20));
    });

    it('fetchOrderBook (`info` l2Book) answers the same 20 levels', async () => {
      const b = await client().fetchOrderBook('ETH/USDC:USDC');
      expect(b.bids).toHaveLength(20);
      expect(b.bids[0]).toEqual([3_400, 1]);
    });
  });

  describe('funding', () => {
    it('reads the rate, an hourly interval and the next full hour from metaAndAssetCtxs; a lot\'s mark per unit', async () => {
      await control('PUT', '/_sim/funding', [
        { exchange: 'hyperliquid', ticker: 'ETH-USDT', fundingRate: 0.0000125, markPrice: 3401.5 },
        { exchange: 'hyperliquid', ticker: 'PEPE-USDT', fundingRate: -0.00002, markPrice: 0.0000182 },
      ]);
      const before = Date.now();
      const rates = await source.fetchFundingRates('hyperliquid');
      const nextHour = (Math.floor(before / HOUR_MS) + 1) * HOUR_MS;
      const eth = rates.find((r) => r.ticker === 'ETH-USDC');
      expect(eth).toMatchObject({ contract: '1', fundingRate: 0.0000125, intervalSeconds: 3600, intervalSource: 'exchange', markPrice: 3401.5 });
      expect([nextHour, nextHour + HOUR_MS]).toContain(eth?.nextFundingTime);
      const pepe = rates.find((r) => r.ticker === 'PEPE-USDC');
      expect(pepe).toMatchObject({ fundingRate: -0.00002, intervalSeconds: 3600 });
      expect(pepe?.markPrice).toBe(0.0000182);
      expect(rates.map((r) => r.ticker).sort()).toEqual(['BTC-USDC', 'ETH-USDC', 'PEPE-USDC', 'SOL-USDC']);
    });

    it('backfills 30 days of hourly payments through `fundingHistory`, paged 500 at a time, oldest first', async () => {
      const since = Date.now() - 30 * DAY_MS;
      for (const [ticker, unit] of [['SOL-USDC', 'SOL-USDT'], ['PEPE-USDC', 'PEPE-USDT']] as const) {
        const read = await source.fetchFundingHistory('hyperliquid', ticker, since);
        const expected = sim.state.funding.history('hyperliquid', unit).filter((s) => s.settledAt >= since).map((s) => ({ settledAt: s.settledAt, rate: s.rate }));
        expect(read.map((s) => ({ settledAt: s.settledAt, rate: s.rate })), ticker).toEqual(expected);
        expect(read.length, ticker).toBeGreaterThan(500);
        expect((read[1]?.settledAt ?? 0) - (read[0]?.settledAt ?? 0)).toBe(HOUR_MS);
      }
    });
  });

  describe('errors and limits', () => {
    it('an error frame rejects the pending watch with the venue\'s text', async () => {
      const c = client();
      await c.loadMarkets();
      const url = (c.urls.api as unknown as { ws: { public: string } }).ws.public;
      const err = await failure(c.watch(url, 'orderbook:NOPE', { method: 'subscribe', subscription: { type: 'l2Book', coin: 'NOPE' } }, 'orderbook:NOPE'));
      expect(err.name).toBe('ExchangeError');
      expect(err.message).toContain('Error parsing JSON into valid websocket request');
    });

    it('an 11th open connection from one IP is refused, counted as the venue\'s cap of 10', async () => {
      const report = async (): Promise<number> => ((await control('GET', '/_sim/violations')) as { byExchange: Record<string, Record<string, number>> }).byExchange.hyperliquid?.['open-connections'] ?? 0;
      const open = ((await control('GET', '/_sim/state')) as { exchanges: Record<string, { connections: unknown[] }> }).exchanges.hyperliquid?.connections.length ?? 0;
      const extra = Array.from({ length: 11 - open }, () => client());
      await Promise.all(extra.map((c) => c.loadMarkets()));
      const results = await Promise.allSettled(extra.map((c) => c.watchOrderBook('BTC/USDC:USDC')));
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
      expect(await report()).toBe(1);
      await Promise.all(extra.map((c) => c.close()));
      await control('DELETE', '/_sim/violations');
    });

    it('a call over the weight limit is a bare 429 (RateLimitExceeded); the REST gate then makes no call for the minute', async () => {
      const gate = new RestGate('hyperliquid', systemClock, { baseMs: 100, maxMs: 1000 });
      const raw = client();
      await raw.loadMarkets();
      const gated = gate.attach(client());
      gated.setMarketsFromExchange(raw);
      await control('POST', '/_sim/rest-limit', { exchange: 'hyperliquid' });
      const before = Date.now();
      const err = await failure(gated.fetchFundingRates());
      expect(err.name).toBe('RateLimitExceeded');
      expect(gate.bannedUntil - before).toBeGreaterThanOrEqual(venue.restBan.minPauseMs - 1_000);
      const calls = await restCalls();
      expect(await failure(gated.fetchFundingRates())).toBeInstanceOf(RestPausedError);
      expect(await restCalls()).toBe(calls);
    });

    it('everything else stayed within the venue\'s limits', async () => {
      const report = (await control('GET', '/_sim/violations')) as { byExchange: Record<string, Record<string, number>> };
      expect(report.byExchange.hyperliquid).toEqual({ 'rest-rate-limit': 1 });
    });
  });
});
