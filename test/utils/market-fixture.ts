import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';
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
  simPost(path: string, body: unknown): Promise<void>;
  /** Resolves once every configured exchange reports connected on /health/market. */
  waitConnected(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The whole app with live feeds through the exchange simulator (D12), on a fresh database. */
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
    waitConnected: async (timeoutMs = 15_000) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const res = await fetch(`${app.baseUrl}/health/market`);
        const body = (await res.json()) as { exchanges: Record<string, { connected: boolean }> };
        if (exchanges.every((e) => body.exchanges[e]?.connected)) return;
        if (Date.now() > end) throw new Error(`not connected: ${JSON.stringify(body)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
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
