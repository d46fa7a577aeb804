import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, toBaseQuantity } from '../../../market-data/ccxt/exchange-clients.js';
import { toDepthClient } from '../../../market-data/depth/ccxt-depth-client.js';
import type { Market } from '../../../market-model/exchanges.js';
import { venueOf } from '../../../venues/registry.js';
import { startSimulator, type RunningSimulator } from '../../../simulator/simulator.js';
import { until } from '../../../../test/utils/wait.js';

/**
 * aster's depth through the REAL ccxt pro client against the strict simulator: the descriptor's
 * limit (20) selects the partial `<id>@depth20` stream, each push a whole book that ccxt resets
 * its book to; several symbols go in one SUBSCRIBE (watchOrderBookForSymbols). ccxt 4.5.84's
 * aster client resolves no unsubscribe (it handles no acknowledgement), so the unsubscribe is
 * checked on the simulator's side rather than awaited (the shared depth contract awaits it).
 */
type Levels = [number, number][];
const LEVELS = 25;
const round = (value: number, decimals: number): number => Number(value.toFixed(decimals));

const CASES: { symbol: string; market: Market; ticker: string; book(v: number): { bids: Levels; asks: Levels } }[] = [
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

describe('aster depth contract: ccxt 4.5.84 watchOrderBook against the strict simulator', () => {
  const { limit } = venueOf('aster').depth;
  let sim: RunningSimulator;
  let client: Exchange;
  const watching = new Set<string>();
  const errors: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH'], walk: false, strict: true });
    client = createExchangeClient('aster', { simulatorUrl: sim.url });
    await client.loadMarkets();
  });

  afterAll(async () => {
    watching.clear();
    await client?.close();
    await sim?.close();
  });

  function watch(symbol: string): void {
    watching.add(symbol);
    const loop = async (): Promise<void> => {
      while (watching.has(symbol)) {
        await client.watchOrderBook(symbol, limit).catch((error: unknown) => {
          if (watching.has(symbol)) errors.push(`${symbol}: ${String(error)}`);
        });
      }
    };
    void loop();
  }

  it.each(CASES)('$symbol: the book ccxt builds is the top 20 of the book PUT /_sim/books set, within 2 s, then its update', async (c) => {
    watch(c.symbol);
    await until(() => ccxtLevels(client, c.symbol, 1), (b) => (b?.bids.length ?? 0) > 0, 5_000, 10);
    for (const version of [1, 2]) {
      const book = c.book(version);
      const started = Date.now();
      await control(sim, 'PUT', '/_sim/books', [{ exchange: 'aster', market: c.market, ticker: c.ticker, ...book }]);
      const expected = { bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
      await until(() => ccxtLevels(client, c.symbol, LEVELS), (seen) => JSON.stringify(seen) === JSON.stringify(expected), 2_000, 10);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    const subs = (await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions;
    expect(subs.aster).toContainEqual(expect.objectContaining({ market: c.market, ticker: c.ticker, channel: 'depth20' }));
    expect(errors).toEqual([]);
  });

  it('watchOrderBookForSymbols subscribes several perpetuals in one request', async () => {
    const symbols = ['BTC/USDT:USDT', 'ETH/USDT:USDT'];
    void client.watchOrderBookForSymbols(symbols, limit).catch((error: unknown) => errors.push(String(error)));
    await until(async () => ((await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions).aster ?? [],
      (subs) => subs.filter((s) => s.market === 'FUTURES').length === 2, 2_000, 10);
    await until(() => ccxtLevels(client, 'BTC/USDT:USDT', 1), (b) => (b?.bids.length ?? 0) > 0, 2_000, 10);
  });

  it('unWatchOrderBook sends the UNSUBSCRIBE and the simulator stops pushing, with zero violations', async () => {
    for (const c of CASES) {
      watching.delete(c.symbol);
      // Not awaited: ccxt's aster client never settles an unsubscribe.
      void client.unWatchOrderBook(c.symbol, { limit }).catch(() => undefined);
    }
    void client.unWatchOrderBookForSymbols(['BTC/USDT:USDT'], { limit }).catch(() => undefined);
    await until(async () => ((await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions).aster, (subs) => subs?.length === 0, 2_000, 10);
    const before = ((await control(sim, 'GET', '/_sim/load')) as { framesSent: number }).framesSent;
    await control(sim, 'PUT', '/_sim/books', CASES.map((c) => ({ exchange: 'aster', market: c.market, ticker: c.ticker, ...c.book(3) })));
    const after = ((await control(sim, 'GET', '/_sim/load')) as { framesSent: number }).framesSent;
    expect(after).toBe(before);
    expect(await control(sim, 'GET', '/_sim/violations')).toMatchObject({ total: 0 });
  });

  it("through the service's depth client a book unsubscribed and asked for again flows again (ccxt never settles the unsubscribe: the client drops its records)", async () => {
    const other = createExchangeClient('aster', { simulatorUrl: sim.url });
    await other.loadMarkets();
    const depth = toDepthClient('aster', other);
    const symbol = 'ETH/USDT';
    const subscribed = async (): Promise<boolean> =>
      (((await control(sim, 'GET', '/_sim/depth-subscriptions')) as DepthSubscriptions).aster ?? []).some((s) => s.market === 'SPOT' && s.ticker === 'ETH-USDT');
    try {
      void depth.subscribe([symbol]).catch(() => undefined);
      await until(() => depth.orderbooks[symbol]?.bids.length ?? 0, (n) => n > 0, 5_000, 10);
      await depth.unsubscribe([symbol]);
      await until(subscribed, (on) => !on, 2_000, 10);
      expect(depth.orderbooks[symbol]).toBeUndefined();
      void depth.subscribe([symbol]).catch(() => undefined);
      await until(subscribed, (on) => on, 2_000, 10);
      await control(sim, 'PUT', '/_sim/books', [{ exchange: 'aster', market: 'SPOT', ticker: 'ETH-USDT', bids: [[3000, 1]], asks: [[3000.5, 2]] }]);
      await until(() => depth.orderbooks[symbol]?.asks[0]?.[0], (price) => price === 3000.5, 2_000, 10);
      const pending = Object.values(other.clients).flatMap((socket) => Object.keys((socket as unknown as { futures: Record<string, unknown> }).futures));
      expect(pending.filter((hash) => hash.startsWith('unsubscribe:'))).toEqual([]);
    } finally {
      await depth.close();
    }
  });
});
