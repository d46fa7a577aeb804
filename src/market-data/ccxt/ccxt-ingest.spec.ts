import type { Exchange, MarketInterface } from 'ccxt';
import { describe, expect, it, vi } from 'vitest';
import { CcxtIngest } from './ccxt-ingest.js';
import { createExchangeClient } from './exchange-clients.js';

/** binance lists BTCUSDT as spot and as perpetual: one id, two markets. */
const MARKETS = [
  { id: 'BTCUSDT', symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', type: 'spot', spot: true, swap: false, contract: false, active: true },
  { id: 'ETHUSDT', symbol: 'ETH/USDT', base: 'ETH', quote: 'USDT', type: 'spot', spot: true, swap: false, contract: false, active: true },
  { id: 'BTCUSDT', symbol: 'BTC/USDT:USDT', base: 'BTC', quote: 'USDT', settle: 'USDT', type: 'swap', spot: false, swap: true, linear: true, contract: true, contractSize: 1, active: true },
] as unknown as MarketInterface[];

function setUp(): { ingest: CcxtIngest; clients: Exchange[] } {
  const clients: Exchange[] = [];
  const ingest = new CcxtIngest({
    createClient: (exchange) => {
      // Never connected: the simulator address nobody listens on.
      const client = createExchangeClient(exchange, { simulatorUrl: 'http://127.0.0.1:9' });
      // The first client is the REST client: its markets are "loaded" already.
      if (clients.length === 0) client.setMarkets(MARKETS);
      clients.push(client);
      return client;
    },
    clock: { now: () => Date.now() }, silenceTimeoutMs: 30_000, backoff: { baseMs: 60_000, maxMs: 60_000 }, marketsRefreshMs: 3_600_000,
    sink: { quote: () => undefined }, onState: () => undefined,
  });
  return { ingest, clients };
}

describe('CcxtIngest: one set of market objects per exchange and market type', () => {
  it('typeMarkets holds only that type\'s markets, built once per loaded markets record', async () => {
    const { ingest } = setUp();
    const spot = await ingest.typeMarkets('binance', 'SPOT');
    const perp = await ingest.typeMarkets('binance', 'FUTURES');
    expect(spot.symbols).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(perp.symbols).toEqual(['BTC/USDT:USDT']);
    // The ambiguous id resolves to the holder's one type.
    expect(spot.safeMarket('BTCUSDT').symbol).toBe('BTC/USDT');
    expect(perp.safeMarket('BTCUSDT').symbol).toBe('BTC/USDT:USDT');
    expect(await ingest.typeMarkets('binance', 'SPOT')).toBe(spot);
    await ingest.close();
  });

  it('a feed\'s client takes the type\'s market objects by reference, not a copy', async () => {
    const { ingest, clients } = setUp();
    ingest.watch('binance', 'FUTURES', ['BTC-USDT'], [0]);
    const holder = await ingest.typeMarkets('binance', 'FUTURES');
    // REST, holder, and the feed's client once the watch has its markets.
    await vi.waitFor(() => expect(clients).toHaveLength(3));
    const feed = clients.find((c) => c !== clients[0] && c !== holder) as Exchange;
    expect(holder.markets?.['BTC/USDT:USDT']).toBeDefined();
    expect(feed.markets?.['BTC/USDT:USDT']).toBe(holder.markets?.['BTC/USDT:USDT']);
    expect(feed.markets?.['BTC/USDT']).toBeUndefined();
    await ingest.close();
  });
});
