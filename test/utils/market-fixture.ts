import type { ExchangeName } from '../../src/market-model/exchanges.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
import { until } from './wait.js';
import { startTestApp, type TestApp } from './test-app.js';

export interface SimQuote {
  exchange: string;
  market: 'SPOT' | 'FUTURES';
  ticker: string;
  bid: number;
  ask: number;
  bidQty?: number;
  askQty?: number;
  volume?: number;
}

export interface MarketFixture {
  app: TestApp;
  sim: RunningSimulator;
  putQuotes(quotes: SimQuote[]): Promise<void>;
  /** Resolves once the app's quote book holds each quote's bid and ask (the ticks have been applied). */
  booked(quotes: SimQuote[], timeoutMs?: number): Promise<void>;
  simPost(path: string, body: unknown): Promise<void>;
  /** Resolves once every configured exchange reports connected on /health/market. */
  waitConnected(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The whole app with live feeds through the exchange simulator (rules: operating), on a fresh database. */
export async function startMarketFixture(
  exchanges: string[],
  symbols: string[],
  env: Record<string, string> = {},
): Promise<MarketFixture> {
  const sim = await startSimulator({ port: 0, symbols: symbols.map((s) => s.split('-')[0] ?? s), walk: false });
  const app = await startTestApp({
    ENABLED_WEBSOCKET: '1',
    MARKET_SIMULATOR_URL: sim.url,
    EXCHANGES: exchanges.join(','),
    SYMBOLS: symbols.join(','),
    ...env,
  });
  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  return {
    app,
    sim,
    putQuotes: (quotes) => send('PUT', '/_sim/quotes', quotes),
    simPost: (path, body) => send('POST', path, body),
    booked: async (quotes, timeoutMs = 5_000) => {
      const book = app.app.get(QuoteBook);
      // The venues quote in price ticks, so the book holds each price to within half a tick.
      const near = (a: number | undefined, b: number, step: number) => a !== undefined && Math.abs(a - b) <= step / 2 + 1e-9;
      const holds = (q: SimQuote) => {
        const step = sim.state.instrument(q.ticker)?.tick ?? 0;
        const tick = book.get(q.exchange as ExchangeName, q.market, q.ticker);
        return near(tick?.bid, q.bid, step) && near(tick?.ask, q.ask, step);
      };
      await until(() => quotes.filter((q) => !holds(q)), (missing) => missing.length === 0, timeoutMs, 10);
    },
    waitConnected: async (timeoutMs = 15_000) => {
      const read = async () => ((await (await fetch(`${app.baseUrl}/health/market`)).json()) as { exchanges: Record<string, { connected: boolean }> }).exchanges;
      await until(read, (status) => exchanges.every((e) => status[e]?.connected), timeoutMs);
    },
    // The simulator is strict (docs/venues.md): whatever a test did, the service must not have
    // broken a venue limit on the way.
    close: async () => {
      const violations = (await (await fetch(`${sim.url}/_sim/violations`)).json()) as { total: number; recent: unknown[] };
      await app.close();
      await sim.close();
      if (violations.total !== 0) throw new Error(`venue limits broken: ${JSON.stringify(violations.recent)}`);
    },
  };
}
