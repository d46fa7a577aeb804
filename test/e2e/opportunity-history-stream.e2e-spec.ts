import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpportunityEventDto } from '../../src/realtime/dto/opportunity-event.dto.js';
import { type MarketFixture, type SimQuote, startMarketFixture } from '../utils/market-fixture.js';
import { SseTestClient } from '../utils/sse-client.js';
import { sleep, until } from '../utils/wait.js';

const DEBOUNCE_MS = 50;
const EXCHANGES = ['binance', 'okx', 'bybit'];
const WALKED = ['BTC-USDT', 'ETH-USDT', 'XRP-USDT', 'DOGE-USDT', 'ADA-USDT', 'LINK-USDT', 'DOT-USDT', 'LTC-USDT'];
const ROUTE = { ticker: 'SOL-USDT', buy: 'binance', sell: 'okx' };

const spot = (exchange: string, ticker: string, bid: number, ask: number): SimQuote => ({ exchange, market: 'SPOT', ticker, bid, ask });
/** Every exchange at bid 99.9 / ask 100: each route −0.1 % gross, below the minimum spread, never recorded. */
const flat = (ticker: string) => EXCHANGES.map((e) => spot(e, ticker, 99.9, 100));

interface StoredSpread {
  time: number;
  gross: number;
}

describe('opportunity history at the stream\'s resolution (rules: recorders, windows)', () => {
  let m: MarketFixture;

  beforeAll(async () => {
    m = await startMarketFixture(EXCHANGES, [ROUTE.ticker, ...WALKED], {
      // The default heartbeat: a window far shorter than it must still be seen whole.
      HISTORY_INTERVAL_MS: '10000',
      HISTORY_MIN_SPREAD_PERCENT: '0',
      SAMPLE_INTERVAL_MS: '0',
      ARBITRAGE_DEBOUNCE_MS: String(DEBOUNCE_MS),
      ARBITRAGE_RATE_LIMIT: '100000',
      OKX_API_KEY: 'e2e-key',
      OKX_API_SECRET: 'e2e-secret',
      OKX_API_PASSWORD: 'e2e-passphrase',
    });
    await m.waitConnected(60_000);
    await m.putQuotes(flat(ROUTE.ticker));
    await m.booked(flat(ROUTE.ticker));
  });
  afterAll(async () => {
    await m?.close();
  });

  const stats = (threshold: number) => request(m.app.baseUrl).get('/v1/opportunity-history/stats')
    .query({ ...ROUTE, days: 1, threshold, basis: 'gross' }).expect(200);
  const backtest = (transferMinutes: number) => request(m.app.baseUrl).post('/v1/opportunity-history/backtest')
    .send({ ...ROUTE, days: 1, threshold: 0.3, basis: 'gross', transferMinutes }).expect(200);
  const stored = async (ticker: string, buy: string, sell: string): Promise<StoredSpread[]> => {
    const rows = await m.app.app.get(DataSource).query<{ ms: string | number; gross: number }[]>(
      `SELECT round(date_part('epoch', time) * 1000) AS ms, gross_spread_percent AS gross FROM opportunity_history
        WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 ORDER BY time`,
      [ticker, buy, sell],
    );
    return rows.map((r) => ({ time: Number(r.ms), gross: r.gross }));
  };

  it('a route shown above the threshold for 1.5 s: a 1.5 s window with the event\'s maximum, entered by the backtest', async () => {
    const stream = new SseTestClient(`${m.app.baseUrl}/v1/realtime/arbitrage?tickers=${ROUTE.ticker}`);
    await stream.waitOpen();
    // okx bids 100.5 against binance's ask 100: (100.5 − 100) ÷ 100 × 100 = 0.5 % gross.
    const upAt = Date.now();
    await m.putQuotes([spot('okx', ROUTE.ticker, 100.5, 100.6)]);
    const [shown] = await stream.waitForEvent((e) => (JSON.parse(e.data) as OpportunityEventDto).sellExchange === 'okx', 5000, 'the 0.5 % event');
    const event = JSON.parse(shown?.data ?? '{}') as OpportunityEventDto;
    expect(event).toMatchObject({ buyExchange: 'binance', sellExchange: 'okx', profitPercentAskBid: 0.5 });
    // The route stays up 1.5 s after it was put up.
    await sleep(Math.max(0, upAt + 1500 - Date.now())); // time: the window being measured is real time
    const downAt = Date.now();
    await m.putQuotes(flat(ROUTE.ticker));
    stream.close();

    // The closing spread (−0.1 %) is stored at the tick that brought the route down.
    const body = await until(() => stats(0.3).then((r) => r.body as Record<string, unknown>), (b) => typeof b.lastSampleAt === 'string' && Date.parse(b.lastSampleAt) >= downAt, 10_000);
    const shownAt = Date.parse(event.timestamp);
    // The event's sample, or a heartbeat that caught the route within the debounce before it.
    const firstAt = Date.parse(body.firstSampleAt as string);
    const endedAt = Date.parse(body.lastSampleAt as string);
    expect(body).toMatchObject({ windows: 1, maxSpread: event.profitPercentAskBid });
    expect(shownAt - firstAt).toBeGreaterThanOrEqual(0);
    expect(shownAt - firstAt).toBeLessThanOrEqual(DEBOUNCE_MS);
    // The window runs from the first sample to the closing tick, whatever HISTORY_INTERVAL_MS (10 s here) is.
    expect((body.minutesAbove as number) * 60_000).toBeCloseTo(endedAt - firstAt, 6);
    expect((endedAt - shownAt) / 1000).toBeGreaterThan(1.5 - (shownAt - upAt) / 1000 - 0.05);
    expect((endedAt - shownAt) / 1000).toBeLessThan(1.5 + 0.5);
    expect(endedAt - downAt).toBeLessThan(1000);

    // The chart's samples: each at its own time, the event's spread first, the closing one last.
    const recorded = (await request(m.app.baseUrl).get('/v1/opportunity-history/samples')
      .query({ ...ROUTE, minutes: 5, basis: 'gross' }).expect(200)).body as { holdMs: number; truncated: boolean; samples: { time: string; spread: number }[] };
    expect(recorded).toMatchObject({ ...ROUTE, minutes: 5, basis: 'gross', holdMs: 10_000, truncated: false });
    expect(recorded.samples[0]).toEqual({ time: body.firstSampleAt, spread: 0.5 });
    expect(recorded.samples.at(-1)).toEqual({ time: body.lastSampleAt, spread: -0.1 });
    expect(recorded.samples.slice(0, -1).every((x) => x.spread === 0.5)).toBe(true);

    const now = (await backtest(0)).body as { trades: number; completed: number; history: Record<string, unknown>[] };
    expect(now).toMatchObject({ trades: 1, completed: 1 });
    expect(now.history[0]).toMatchObject({ entry: body.firstSampleAt, status: 'completed', entrySpread: 0.5, exitGrossSpread: 0.5 });
    // With a minute in transit the 1.5 s window has closed on arrival: entered, then expired at spread 0.
    const slow = (await backtest(1)).body as { trades: number; expired: number; history: Record<string, unknown>[] };
    expect(slow).toMatchObject({ trades: 1, expired: 1 });
    expect(slow.history[0]).toMatchObject({ entry: body.firstSampleAt, status: 'expired', exitGrossSpread: 0 });
  });

  it('the samples query checks its parameters in the `errors` rule order', async () => {
    const ask = (query: Record<string, unknown>) => request(m.app.baseUrl).get('/v1/opportunity-history/samples').query(query).expect(400);
    expect((await ask({ ...ROUTE })).body.message).toBe('minutes is required');
    expect((await ask({ ...ROUTE, sell: 'binance', minutes: 0 })).body.message).toBe('buy and sell must differ');
    expect((await ask({ ...ROUTE, minutes: 0 })).body.message).toBe('minutes must be an integer from 1 to 1440');
    expect((await ask({ ...ROUTE, minutes: 1441 })).body.message).toBe('minutes must be an integer from 1 to 1440');
    expect((await ask({ ...ROUTE, minutes: 1.5 })).body).toEqual({ statusCode: 400, message: 'minutes must be an integer from 1 to 1440', error: 'Bad Request' });
    expect((await ask({ ...ROUTE, minutes: 5, basis: 'mid' })).body.message).toBe('basis must be net or gross');
  });

  it('every opportunity event of the walk has its spread recorded within one debounce', async () => {
    const stream = new SseTestClient(`${m.app.baseUrl}/v1/realtime/arbitrage?tickers=${WALKED.join(',')}`);
    await stream.waitOpen();
    await m.simPost('/_sim/walk', { enabled: true, intervalMs: 100 });
    let events: OpportunityEventDto[];
    try {
      events = (await stream.waitFor(12, 60_000)).map((e) => JSON.parse(e.data) as OpportunityEventDto);
    } finally {
      await m.simPost('/_sim/walk', { enabled: false });
      stream.close();
    }
    const missing = async (): Promise<string[]> => {
      const out: string[] = [];
      for (const e of events) {
        const t = Date.parse(e.timestamp);
        const spreads = await stored(e.ticker, e.buyExchange, e.sellExchange);
        const hit = spreads.some((s) => Math.abs(s.time - t) <= DEBOUNCE_MS && s.gross === e.profitPercentAskBid);
        if (!hit) out.push(`${e.ticker} ${e.buyExchange}→${e.sellExchange} ${e.profitPercentAskBid} at ${e.timestamp}`);
      }
      return out;
    };
    // Stored within a flush (1 s) of being shown.
    expect(await until(missing, (left) => left.length === 0, 10_000, 200)).toEqual([]);
  });
});
