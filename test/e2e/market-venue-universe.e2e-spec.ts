import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES, type ExchangeName } from '../../src/market-model/exchanges.js';
import { venueOf } from '../../src/venues/registry.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { DEFAULT_SIM_SYMBOLS } from '../../src/simulator/instruments.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until as untilEvery } from '../utils/wait.js';

/** The venues whose markets the USDT universe names as they list them (a USDC venue lists `BASE-USDC`: its own specs cover it). */
const USDT_VENUES = EXCHANGE_NAMES.filter((e) => (venueOf(e).quoteCurrency ?? 'USDT') === 'USDT');

/**
 * The default 300-symbol universe (600 markets on each of the five exchanges) through the
 * unmodified ccxt clients against the STRICT simulator: every market flows on few sockets and
 * the simulator counts no breach of any venue limit (docs/venues.md). Service, simulator and
 * 3,000 markets share this process, so the timeouts are generous for a loaded machine.
 */
const BASES = [...DEFAULT_SIM_SYMBOLS, ...Array.from({ length: 300 - DEFAULT_SIM_SYMBOLS.length }, (_, i) => `C${String(i).padStart(3, '0')}`)];

/** Polls every 250 ms. */
const until = <T>(read: () => Promise<T> | T, ok: (v: T) => boolean, timeoutMs: number): Promise<T> => untilEvery(read, ok, timeoutMs, 250);

describe('the 300-symbol universe against the strict simulator', () => {
  let sim: RunningSimulator;
  let app: TestApp;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: BASES, strict: true });
    app = await startTestApp({
      // Every venue of the registry, not only the default five.
      EXCHANGES: 'all',
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      MARKET_SILENCE_TIMEOUT_MS: '10000',
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  interface ExchangeHealth { connected: boolean; markets: number; refused: unknown[] }
  interface SimState { exchanges: Record<ExchangeName, { connections: { subscriptions: number }[] }> }
  interface Violations { total: number; byExchange: Record<ExchangeName, Record<string, number>>; recent: unknown[] }
  const health = async (): Promise<Record<ExchangeName, ExchangeHealth>> =>
    ((await (await fetch(`${app.baseUrl}/health/market`)).json()) as { exchanges: Record<ExchangeName, ExchangeHealth> }).exchanges;
  const last = `${BASES[299] ?? ''}-USDT`;
  /** 300 symbols per market type, at most the venue's own count per socket (binance 200, bybit/okx/gate 100, bitget 50: docs/venues.md). */
  const sockets = (exchange: ExchangeName): number => 2 * Math.ceil(300 / venueOf(exchange).feeds.perConnection);

  it('every exchange connects its 600 markets', async () => {
    await until(health, (x) => USDT_VENUES.every((e) => x[e]?.connected && x[e]?.markets === 600), 200_000);
    const book = app.app.get(QuoteBook);
    await until(() => USDT_VENUES.every((e) => book.get(e, 'SPOT', last) && book.get(e, 'FUTURES', last)), (ok) => ok, 30_000);
  }, 260_000);

  it.each(USDT_VENUES)('%s: 600 markets flowing on its few sockets, without a single violation', async (exchange) => {
    const h = await health();
    expect(h[exchange]).toMatchObject({ connected: true, markets: 600, refused: [] });
    const book = app.app.get(QuoteBook);
    for (const base of BASES) {
      for (const market of ['SPOT', 'FUTURES'] as const) expect(book.get(exchange, market, `${base}-USDT`), `${market} ${base}`).toBeDefined();
    }
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as SimState;
    expect(state.exchanges[exchange].connections).toHaveLength(sockets(exchange));
    expect(state.exchanges[exchange].connections.reduce((n, c) => n + c.subscriptions, 0)).toBe(600);
    const v = (await (await fetch(`${sim.url}/_sim/violations`)).json()) as Violations;
    expect(v.byExchange[exchange] ?? {}, JSON.stringify(v.recent)).toEqual({});
  });
});
