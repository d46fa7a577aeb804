import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, toBaseQuantity } from '../../src/market-data/ccxt/exchange-clients.js';
import type { ExchangeName, Market } from '../../src/market-model/exchanges.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from '../utils/wait.js';

/**
 * Depth contract of one exchange: the REAL ccxt pro client's watchOrderBook against the
 * simulator, strict mode on. A book set with PUT /_sim/books is the book ccxt builds (through
 * the venue's snapshot, deltas and any REST snapshot) within 2 s, a second book reaches it as
 * the venue's updates, and unWatchOrderBook unsubscribes: the simulator stops pushing.
 */
type Levels = [number, number][];

interface DepthCase {
  symbol: string;
  market: Market;
  ticker: string;
  /** Builds the book for a version: prices on the tick, sizes whole contracts where the venue counts in contracts. */
  book(version: number): { bids: Levels; asks: Levels };
  /** The venue's lot (binance and bybit `1000PEPE`): ccxt sees prices × it and sizes ÷ it. */
  lot?: number;
}

export interface DepthContractOptions {
  /** The limit passed to watchOrderBook (bybit accepts 1, 50, 200, 1000 only). */
  limit: number;
  /** Params ccxt needs to unsubscribe the channel it subscribed (bybit linear, gate). */
  unwatchParams?: (market: Market) => Record<string, unknown>;
  /** Also watch the venue's lot-named PEPE perpetual (`1000PEPE/USDT:USDT`). */
  lotMarket?: boolean;
}

const PEPE_LOT: DepthCase = {
  symbol: '1000PEPE/USDT:USDT', market: 'FUTURES', ticker: 'PEPE-USDT', lot: 1000,
  book: (v) => ({
    bids: Array.from({ length: 25 }, (_, k) => [round(0.0000182 - (v + k) * 1e-10, 10), 1_000_000 + k * 1000]),
    asks: Array.from({ length: 25 }, (_, k) => [round(0.0000183 - v * 1e-10 + k * 1e-10, 10), 2_000_000 + v * 1000]),
  }),
};

/** A book as ccxt shows it on the venue: prices × the lot, sizes ÷ it. */
function seenAs(c: DepthCase, levels: readonly (readonly [number, number])[]): Levels {
  const lot = c.lot ?? 1;
  return levels.map(([p, q]) => [round(p * lot, 10), round(q / lot, 8)]);
}

const LEVELS = 25;
const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));

const CASES: DepthCase[] = [
  {
    symbol: 'BTC/USDT', market: 'SPOT', ticker: 'BTC-USDT',
    book: (v) => ({
      bids: Array.from({ length: LEVELS }, (_, k) => [round(97_000 - v - k * 0.2, 1), round(0.5 + k * 0.01 + v * 0.1, 5)]),
      asks: Array.from({ length: LEVELS }, (_, k) => [round(97_000.1 - v + k * 0.1, 1), round(0.25 + k * 0.02, 5)]),
    }),
  },
  {
    symbol: 'ETH/USDT:USDT', market: 'FUTURES', ticker: 'ETH-USDT',
    book: (v) => ({
      bids: Array.from({ length: LEVELS }, (_, k) => [round(3_400 - v * 0.5 - k * 0.02, 2), round((k + 1 + v) * 0.1, 1)]),
      asks: Array.from({ length: LEVELS }, (_, k) => [round(3_400.01 - v * 0.5 + k * 0.01, 2), round((k + 2) * 0.1, 1)]),
    }),
  },
];

interface CcxtBook {
  bids: number[][];
  asks: number[][];
}

/** ccxt's book for the symbol, top `depth` levels, sizes in base units. */
function ccxtLevels(client: Exchange, symbol: string, depth: number): { bids: Levels; asks: Levels } | undefined {
  const book = (client.orderbooks as unknown as Record<string, CcxtBook | undefined>)[symbol];
  const market = client.markets?.[symbol];
  if (!book) return undefined;
  const side = (levels: number[][]): Levels => levels.slice(0, depth).map(([p, a]) => [round(p ?? NaN, 10), round(toBaseQuantity(market, a ?? NaN), 8)]);
  return { bids: side(book.bids), asks: side(book.asks) };
}

async function control(sim: RunningSimulator, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.status, `${method} ${path}`).toBe(200);
  return res.json();
}

type DepthSubscriptions = Record<string, { market: string; ticker: string; channel: string }[]>;

export function describeDepthContract(exchange: ExchangeName, options: DepthContractOptions): void {
  describe(`${exchange} depth contract: ccxt 4.5.84 watchOrderBook against the simulator`, () => {
    let sim: RunningSimulator;
    let client: Exchange;
    const watching = new Set<string>();
    /** What watchOrderBook rejected with (a checksum or nonce error means the venue's frames broke ccxt's book). */
    const errors: string[] = [];

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'PEPE'], walk: false, strict: true });
      client = createExchangeClient(exchange, { simulatorUrl: sim.url });
      await client.loadMarkets();
    });

    afterAll(async () => {
      watching.clear();
      await client?.close();
      await sim?.close();
    });

    /** Keeps a watchOrderBook pending, as a consumer does, until the symbol is unwatched. */
    function watch(symbol: string): void {
      watching.add(symbol);
      const loop = async (): Promise<void> => {
        while (watching.has(symbol)) {
          await client.watchOrderBook(symbol, options.limit).catch((error: unknown) => {
            if (watching.has(symbol)) errors.push(`${symbol}: ${String(error)}`);
          });
        }
      };
      void loop();
    }

    const cases = options.lotMarket ? [...CASES, PEPE_LOT] : CASES;

    it.each(cases)('$symbol: the book ccxt builds is the book PUT /_sim/books set, within 2 s, then its update', async (c) => {
      watch(c.symbol);
      await until(() => ccxtLevels(client, c.symbol, 1), (b) => (b?.bids.length ?? 0) > 0, 5_000, 10);
      for (const version of [1, 2]) {
        const book = c.book(version);
        const started = Date.now();
        await control(sim, 'PUT', '/_sim/books', [{ exchange, market: c.market, ticker: c.ticker, ...book }]);
        const depth = Math.min(options.limit, LEVELS);
        const expected = { bids: seenAs(c, book.bids.slice(0, depth)), asks: seenAs(c, book.asks.slice(0, depth)) };
        await until(() => ccxtLevels(client, c.symbol, depth), (seen) => JSON.stringify(seen) === JSON.stringify(expected), 2_000, 10);
        expect(Date.now() - started).toBeLessThan(2_000);
      }
      const subs = (await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions;
      expect(subs[exchange]).toContainEqual(expect.objectContaining({ market: c.market, ticker: c.ticker }));
      expect(errors).toEqual([]);
    });

    it.each(cases)('$symbol: while the walk moves the generated book, ccxt follows it level for level', async (c) => {
      const framesAt = async (): Promise<number> => ((await control(sim, 'GET', '/_sim/load')) as { framesSent: number }).framesSent;
      const start = await framesAt();
      await control(sim, 'POST', '/_sim/walk', { enabled: true, intervalMs: 50 });
      await until(framesAt, (n) => n >= start + 40, 5_000, 20);
      await control(sim, 'POST', '/_sim/walk', { enabled: false });
      const quote = sim.state.get(exchange, c.market, c.ticker);
      const book = quote ? sim.state.book(quote) : undefined;
      const depth = Math.min(options.limit, book?.bids.length ?? 0, book?.asks.length ?? 0);
      const expected = { bids: seenAs(c, (book?.bids ?? []).slice(0, depth)), asks: seenAs(c, (book?.asks ?? []).slice(0, depth)) };
      expect(depth).toBeGreaterThanOrEqual(20);
      await until(() => ccxtLevels(client, c.symbol, depth), (seen) => JSON.stringify(seen) === JSON.stringify(expected), 2_000, 10);
      expect(errors).toEqual([]);
    });

    it('unWatchOrderBook sends the venue\'s unsubscribe and the simulator stops pushing, with zero violations', async () => {
      for (const c of cases) {
        watching.delete(c.symbol);
        await client.unWatchOrderBook(c.symbol, options.unwatchParams?.(c.market) ?? {});
      }
      await until(async () => ((await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions)[exchange], (subs) => subs?.length === 0, 2_000, 10);
      const before = ((await control(sim, 'GET', '/_sim/load')) as { framesSent: number }).framesSent;
      await control(sim, 'PUT', '/_sim/books', cases.map((c) => ({ exchange, market: c.market, ticker: c.ticker, ...c.book(3) })));
      const after = ((await control(sim, 'GET', '/_sim/load')) as { framesSent: number }).framesSent;
      expect(after).toBe(before);
      expect(await control(sim, 'GET', '/_sim/violations')).toMatchObject({ total: 0 });
    });
  });
}
