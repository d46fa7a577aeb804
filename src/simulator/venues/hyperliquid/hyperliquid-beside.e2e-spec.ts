import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { venueOf } from '../../../venues/registry.js';
import { SseTestClient } from '../../../../test/utils/sse-client.js';
import { type MarketFixture, type SimQuote, startMarketFixture } from '../../../../test/utils/market-fixture.js';

/**
 * hyperliquid, watched when EXCHANGES names it, beside binance and bybit (strict simulator): its
 * quotes PUT through the simulator's control API reach the price stream as the USDC markets they
 * are (`ETH-USDC`), and its spot bid, brought into USDT at the USDC-USDT mid binance publishes
 * (never 1:1), opens a route from each old venue, the event showing the rate, its book and how a
 * transfer to the on-chain venue is treated. The simulator's `ETH-USDT` instrument is listed on
 * hyperliquid as ETH/USDC: its prices there are USDC.
 */
const OLD = ['binance', 'bybit'] as const;

interface PriceEntry { exchange: string; market: string; ticker: string; bid: number; ask: number }
interface Conversion { exchange: string; from: string; to: string; rate: number; rateSource: { exchange: string; ticker: string; bid: number; ask: number }; bidUsdc: number; askUsdc: number }
interface Opportunity {
  ticker: string; buyExchange: string; sellExchange: string; buyPrice: number; sellPrice: number;
  transferable: boolean; quoteConversions: Conversion[]; transferNote: string | null;
}

describe('hyperliquid beside binance and bybit: price stream and opportunities through the USDC/USDT rate', () => {
  let m: MarketFixture;
  const clients: SseTestClient[] = [];
  const open = async (path: string): Promise<SseTestClient> => {
    const c = new SseTestClient(`${m.app.baseUrl}${path}`);
    clients.push(c);
    await c.waitOpen();
    return c;
  };
  const rate: SimQuote[] = [
    { exchange: 'binance', market: 'SPOT', ticker: 'USDC-USDT', bid: 0.9998, ask: 0.9999 },
    { exchange: 'bybit', market: 'SPOT', ticker: 'USDC-USDT', bid: 0.9997, ask: 0.9999 },
  ];
  const flat: SimQuote[] = OLD.map((exchange) => ({ exchange, market: 'SPOT', ticker: 'ETH-USDT', bid: 3000, ask: 3000.5 }));

  beforeAll(async () => {
    m = await startMarketFixture(['binance', 'bybit', 'hyperliquid'], ['BTC-USDT', 'ETH-USDT', 'USDC-USDT'], {
      SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', ARBITRAGE_DEBOUNCE_MS: '50', ARBITRAGE_RATE_LIMIT: '100000', FUNDING_REFRESH_MS: '0',
    });
    await m.waitConnected(30_000);
    await m.putQuotes([...rate, ...flat]);
    await m.booked([...rate, ...flat], 15_000);
  }, 90_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    await m?.close();
  });

  it('a hyperliquid spot and perpetual quote reach /v1/realtime/prices as its USDC markets', async () => {
    const prices = await open('/v1/realtime/prices');
    const quotes: SimQuote[] = [
      { exchange: 'hyperliquid', market: 'SPOT', ticker: 'BTC-USDT', bid: 97_001.1, ask: 97_001.3 },
      { exchange: 'hyperliquid', market: 'FUTURES', ticker: 'BTC-USDT', bid: 97_011.1, ask: 97_011.3 },
    ];
    await m.putQuotes(quotes);
    for (const q of quotes) {
      const shows = (entries: PriceEntry[]) => entries.some((e) => e.exchange === 'hyperliquid' && e.market === q.market && e.ticker === 'BTC-USDC' && e.bid === q.bid && e.ask === q.ask);
      const event = await prices.waitForEvent((e) => shows(JSON.parse(e.data) as PriceEntry[]), 10_000, `${q.market} quote on hyperliquid`);
      expect(event).toBeDefined();
    }
  });

  it('a hyperliquid spot bid above the others\' asks in USDT opens a route from each, priced at binance\'s USDC-USDT mid', async () => {
    const stream = await open('/v1/realtime/arbitrage?tickers=ETH-USDT');
    // 3,100 USDC at 0.99985 (binance's 0.9998 / 0.9999, the narrower book) is 3,099.535 USDT.
    await m.putQuotes([{ exchange: 'hyperliquid', market: 'SPOT', ticker: 'ETH-USDT', bid: 3100, ask: 3100.5 }]);
    for (const [i, buy] of OLD.entries()) {
      const previous = OLD[i - 1];
      await m.putQuotes([
        { exchange: buy, market: 'SPOT', ticker: 'ETH-USDT', bid: 2950, ask: 2950.5 },
        ...(previous ? [{ exchange: previous, market: 'SPOT' as const, ticker: 'ETH-USDT', bid: 3000, ask: 3000.5 }] : []),
      ]);
      const route = (o: Opportunity): boolean => o.ticker === 'ETH-USDT' && o.buyExchange === buy && o.sellExchange === 'hyperliquid';
      const seen = await stream.waitForEvent((e) => route(JSON.parse(e.data) as Opportunity), 10_000, `a route from ${buy} to hyperliquid`);
      const event = seen.map((e) => JSON.parse(e.data) as Opportunity).findLast(route);
      expect(event).toMatchObject({ buyPrice: 2950.5, sellPrice: 3099.535, transferable: false, transferNote: venueOf('hyperliquid').onChain?.transfer });
      expect(event?.quoteConversions).toEqual([{
        exchange: 'hyperliquid', from: 'USDC', to: 'USDT', rate: 0.99985,
        rateSource: { exchange: 'binance', ticker: 'USDC-USDT', bid: 0.9998, ask: 0.9999 }, bidUsdc: 3100, askUsdc: 3100.5,
      }]);
    }
  });
});
