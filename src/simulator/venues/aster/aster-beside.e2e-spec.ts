import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXCHANGES, type ExchangeName } from '../../../market-model/exchanges.js';
import { SseTestClient } from '../../../../test/utils/sse-client.js';
import { type MarketFixture, type SimQuote, startMarketFixture } from '../../../../test/utils/market-fixture.js';

/**
 * aster, watched only when EXCHANGES names it, beside the five: a quote PUT on aster through the
 * simulator's control API reaches the price stream (spot and perpetual), and an aster spot bid far
 * above the others' asks opens a route from each of the five (buy there, sell on aster).
 */
/** aster and the five a default start watches (another added venue may quote in another currency). */
const HERE: ExchangeName[] = [...DEFAULT_EXCHANGES, 'aster'];
const OTHERS = HERE.filter((e) => e !== 'aster');

interface PriceEntry { exchange: string; market: string; ticker: string; bid: number; ask: number }
interface Opportunity { ticker: string; buyExchange: string; sellExchange: string }

describe('aster beside the five: price stream and opportunities', () => {
  let m: MarketFixture;
  const clients: SseTestClient[] = [];
  const open = async (path: string): Promise<SseTestClient> => {
    const c = new SseTestClient(`${m.app.baseUrl}${path}`);
    clients.push(c);
    await c.waitOpen();
    return c;
  };
  const flat: SimQuote[] = HERE.flatMap((exchange) => (['SPOT', 'FUTURES'] as const).map((market) => ({ exchange, market, ticker: 'ETH-USDT', bid: 3000, ask: 3000.5 })));

  beforeAll(async () => {
    m = await startMarketFixture([...HERE], ['BTC-USDT', 'ETH-USDT'], {
      SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', ARBITRAGE_DEBOUNCE_MS: '50', ARBITRAGE_RATE_LIMIT: '100000',
    });
    await m.waitConnected(30_000);
    await m.putQuotes(flat);
    await m.booked(flat, 15_000);
  }, 90_000);

  afterAll(async () => {
    clients.forEach((c) => c.close());
    await m?.close();
  });

  it('an aster spot and perpetual quote reach /v1/realtime/prices', async () => {
    const prices = await open('/v1/realtime/prices');
    const quotes: SimQuote[] = [
      { exchange: 'aster', market: 'SPOT', ticker: 'BTC-USDT', bid: 97_001.1, ask: 97_001.3 },
      { exchange: 'aster', market: 'FUTURES', ticker: 'BTC-USDT', bid: 97_011.1, ask: 97_011.3 },
    ];
    await m.putQuotes(quotes);
    const shows = (q: SimQuote) => (entries: PriceEntry[]) => entries.some((e) => e.exchange === 'aster' && e.market === q.market && e.ticker === q.ticker && e.bid === q.bid && e.ask === q.ask);
    for (const q of quotes) {
      const event = await prices.waitForEvent((e) => shows(q)(JSON.parse(e.data) as PriceEntry[]), 10_000, `${q.market} quote on aster`);
      expect(event).toBeDefined();
    }
  });

  it('an aster spot bid far above the others\' asks opens a route from each of the five, the cheapest ask first', async () => {
    const stream = await open('/v1/realtime/arbitrage?tickers=ETH-USDT');
    await m.putQuotes([{ exchange: 'aster', market: 'SPOT', ticker: 'ETH-USDT', bid: 3100, ask: 3100.5 }]);
    // The stream carries a ticker's best route: each venue in turn gets the cheapest ask.
    for (const [i, buy] of OTHERS.entries()) {
      const previous = OTHERS[i - 1];
      await m.putQuotes([
        { exchange: buy, market: 'SPOT', ticker: 'ETH-USDT', bid: 2950, ask: 2950.5 },
        ...(previous ? [{ exchange: previous, market: 'SPOT' as const, ticker: 'ETH-USDT', bid: 3000, ask: 3000.5 }] : []),
      ]);
      const seen = await stream.waitForEvent((e) => {
        const o = JSON.parse(e.data) as Opportunity;
        return o.ticker === 'ETH-USDT' && o.buyExchange === buy && o.sellExchange === 'aster';
      }, 10_000, `a route from ${buy} to aster`);
      expect(seen.length).toBeGreaterThan(0);
    }
  });
});
