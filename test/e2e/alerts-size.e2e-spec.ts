import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluatorService } from '../../src/alerts/alert-evaluator.service.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

type Level = [number, number];
const EXCHANGES = ['binance', 'okx', 'bybit'];

/**
 * Opportunity rules with `size`/`minSize` against real order books: the simulator's books reach
 * the ingest workers' ccxt depth clients, the stream prices each event, and a rule's minSize is
 * tested on the depth priced at its own size and net threshold. A route's first event (books not
 * yet held) has no size and so passes no minSize.
 */
describe('alert rules with size and minSize, where depth exists', () => {
  let m: MarketFixture;
  let sized: Receiver;
  let deep: Receiver;
  const books = async (list: { exchange: string; bids: Level[]; asks: Level[] }[]): Promise<void> => {
    const res = await fetch(`${m.sim.url}/_sim/books`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(list.map((b) => ({ ...b, market: 'SPOT', ticker: 'ETH-USDT' }))),
    });
    expect(res.status).toBe(200);
  };
  const rule = (name: string, condition: object, url: string) =>
    request(m.app.baseUrl).post('/v1/alerts/rules')
      .send({ email: 'size@example.com', name, kind: 'opportunity', condition: { tickers: ['ETH-USDT'], ...condition }, channel: { type: 'webhook', url } })
      .expect(201);

  beforeAll(async () => {
    [sized, deep] = await Promise.all([startReceiver(), startReceiver()]);
    m = await startMarketFixture(EXCHANGES, ['ETH-USDT', 'BTC-USDT'], { SAMPLE_INTERVAL_MS: '0', DEPTH_GRACE_MS: '1500', ALERT_TARGETS_ALLOW_PRIVATE: '1' });
    await m.waitConnected();
    // Flat: no route open (bybit's book spans every price set here, so no route of it opens).
    await books([
      ...['binance', 'okx'].map((exchange) => ({ exchange, bids: [[3000, 5], [2999, 5]] as Level[], asks: [[3000.1, 5], [3000.2, 5]] as Level[] })),
      { exchange: 'bybit', bids: [[2990, 5]], asks: [[3040, 5]] },
    ]);
  });
  afterAll(async () => {
    await m?.close();
    await Promise.all([sized, deep].map((r) => r?.close()));
  });

  it('minSize fires on the depth priced at the rule\'s size; a minSize beyond the books never fires', async () => {
    await rule('at 500, at least 1000 deep', { size: 500, minSize: 1000 }, sized.url);
    await rule('a million deep', { minSize: 1_000_000 }, deep.url);
    await m.app.app.get(AlertEvaluatorService).reload();
    // binance asks 0.1 at 3000 then 5 at 3001; okx bids 0.1 at 3030 then 5 at 3020: about 15,000 USDT of depth.
    await books([
      { exchange: 'binance', bids: [[2999, 5]], asks: [[3000, 0.1], [3001, 5]] },
      { exchange: 'okx', bids: [[3030, 0.1], [3020, 5]], asks: [[3031, 5]] },
    ]);
    await until(() => sized.received.length, (n) => n >= 1, 15_000);
    await m.app.app.get(AlertEvaluatorService).settled();
    const body = JSON.parse(sized.received[0].body) as { text: string; data: Record<string, unknown> };
    expect(body.data).toMatchObject({ ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx', sizeNotionalUsdt: 500 });
    expect(body.data.maxSizeUsdt).toBeGreaterThanOrEqual(1000);
    expect(body.data.maxSizeUsdt).toBeLessThan(1_000_000);
    expect(body.text).toMatch(/ At 500 USDT: net -?[\d.]+%; depth up to [\d.]+ USDT\./);
    // Every event that reached the first rule also reached this one: none was a million deep.
    expect(deep.received).toHaveLength(0);
  });
});
