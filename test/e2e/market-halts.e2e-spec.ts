import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../../src/market-model/exchanges.js';
import { QuoteBook } from '../../src/market-data/quote-book.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { VENUE_CONTRACTS } from '../utils/venue-contracts.js';
import { until } from '../utils/wait.js';
import { venueOf } from '../../src/venues/registry.js';

/** The venues whose markets the USDT universe names as they list them (a USDC venue lists `BASE-USDC`: its own specs cover it). */
const USDT_VENUES = EXCHANGE_NAMES.filter((e) => (venueOf(e).quoteCurrency ?? 'USDT') === 'USDT');

/**
 * Halts and delistings as the venues do them (rules: tickers), through the unmodified ccxt clients
 * against the strict simulator: a halted or delisted market stays in the venue's market list with
 * the venue's own status field (POST /_sim/halt, /_sim/delist). The markets reload
 * (MARKET_MARKETS_REFRESH_MS, 1 s here) drops it from its feed and lists it under `refused` with the
 * status as the reason while the connection carries on; POST /_sim/restore trades it again and the
 * next reload watches it again: off `refused`, quoting.
 */
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'];

interface Health { exchanges: Record<ExchangeName, { connected: boolean; markets: number; reconnects: number; refused: { ticker: string; market: Market; reason: string }[] }> }

describe('halts and delistings, as the venues list them', () => {
  let m: MarketFixture;
  let book: QuoteBook;
  const health = async (): Promise<Health> => (await (await fetch(`${m.app.baseUrl}/health/market`)).json()) as Health;
  const control = async (path: string, body: unknown): Promise<unknown> => {
    const res = await fetch(`${m.sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
    return res.json();
  };
  /** Resolves once the book holds this price for the market (it is watched and quoting). */
  const quotes = async (exchange: ExchangeName, market: Market, ticker: string, bid: number): Promise<void> => {
    await m.putQuotes([{ exchange, market, ticker, bid, ask: bid + 1 }]);
    await until(() => book.get(exchange, market, ticker)?.bid, (b) => b === bid, 10_000);
  };

  beforeAll(async () => {
    m = await startMarketFixture([...USDT_VENUES], SYMBOLS, {
      MARKET_MARKETS_REFRESH_MS: '1000',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      FUNDING_REFRESH_MS: '0',
    });
    book = m.app.app.get(QuoteBook);
    await m.waitConnected(60_000);
  }, 90_000);

  afterAll(async () => {
    await m?.close();
  });

  for (const exchange of USDT_VENUES) {
    for (const [status, market] of [['halted', 'SPOT'], ['delisted', 'FUTURES']] as const) {
      it(`${exchange}: a ${status} ${market} market leaves its feed with the venue's status, and comes back when restored`, async () => {
        const before = (await health()).exchanges[exchange];
        await control(status === 'halted' ? '/_sim/halt' : '/_sim/delist', { exchange, ticker: 'SOL-USDT', market, [status]: true });
        const h = await until(health, (x) => x.exchanges[exchange].refused.some((r) => r.ticker === 'SOL-USDT'), 10_000);
        expect(h.exchanges[exchange].refused).toEqual([
          expect.objectContaining({ ticker: 'SOL-USDT', market, reason: VENUE_CONTRACTS[exchange].halts[status][market] }),
        ]);
        expect(h.exchanges[exchange].markets).toBe(before.markets - 1);
        // The connection carried on: the others on it still quote, with no reconnect.
        await quotes(exchange, market, 'ETH-USDT', 3000 + Math.round(Math.random() * 100));
        expect((await health()).exchanges[exchange]).toMatchObject({ connected: true, reconnects: before.reconnects });

        await control('/_sim/restore', { exchange, ticker: 'SOL-USDT', market });
        await until(health, (x) => x.exchanges[exchange].refused.length === 0, 10_000);
        await quotes(exchange, market, 'SOL-USDT', 150 + Math.round(Math.random() * 10));
        expect((await health()).exchanges[exchange].markets).toBe(before.markets);
      }, 30_000);
    }
  }

  it('a market the venue refuses at subscribe (halted between reloads) is taken out without losing the connection', async () => {
    // okx refuses a subscribe for a suspended instrument with 60018; a dropped socket re-subscribes everything.
    await control('/_sim/halt', { exchange: 'okx', ticker: 'BTC-USDT', market: 'SPOT', halted: true });
    await control('/_sim/drop', { exchange: 'okx' });
    await until(health, (x) => x.exchanges.okx.refused.some((r) => r.ticker === 'BTC-USDT') && x.exchanges.okx.connected, 10_000);
    await quotes('okx', 'SPOT', 'ETH-USDT', 3210);
    await control('/_sim/restore', { exchange: 'okx', ticker: 'BTC-USDT' });
    await until(health, (x) => x.exchanges.okx.refused.length === 0, 10_000);
    await quotes('okx', 'SPOT', 'BTC-USDT', 100_500);
  }, 30_000);
});
