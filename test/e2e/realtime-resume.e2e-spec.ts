import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SseTestClient } from '../utils/sse-client.js';
import { startMarketFixture, type MarketFixture } from '../utils/market-fixture.js';

/**
 * A reloaded page resumes the opportunity stream: a new EventSource cannot set Last-Event-ID,
 * so the id it saw last goes in the `lastEventId` query parameter, with the same replay. The
 * header, which a browser sends by itself on its own reconnects, wins when both are present.
 */
const open: SseTestClient[] = [];
const client = (target: string, headers: Record<string, string> = {}): SseTestClient => {
  const c = new SseTestClient(target, [], headers);
  open.push(c);
  return c;
};
const spread = (ticker: string, buyAsk: number, sellBid: number) => [
  { exchange: 'binance', market: 'SPOT' as const, ticker, bid: buyAsk - 0.01, ask: buyAsk },
  { exchange: 'okx', market: 'SPOT' as const, ticker, bid: sellBid, ask: sellBid + 0.01 },
];
const ids = (c: SseTestClient): number[] => c.events.map((e) => Number(e.id));

describe('opportunity stream resumed after a page reload', () => {
  let m: MarketFixture;
  let url: string;
  let control: SseTestClient;

  beforeAll(async () => {
    m = await startMarketFixture(['binance', 'okx'], ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'], { SAMPLE_INTERVAL_MS: '0' });
    url = `${m.app.baseUrl}/v1/realtime/arbitrage`;
    await m.waitConnected();
    // A reference client connected throughout sees every event live.
    control = new SseTestClient(url);
    await m.putQuotes(spread('BTC-USDT', 60000, 60300));
    await control.waitFor(1, 5000);
    await m.putQuotes(spread('ETH-USDT', 3000, 3015));
    await control.waitFor(2, 5000);
    await m.putQuotes(spread('SOL-USDT', 150, 151));
    await control.waitFor(3, 5000);
  });
  afterEach(() => {
    open.splice(0).forEach((c) => c.close());
  });
  afterAll(async () => {
    control?.close();
    await m?.close();
  });

  it('?lastEventId replays the kept events after that id, in order and without duplicates', async () => {
    const [first] = ids(control);
    const resumed = client(`${url}?lastEventId=${first}`);
    await resumed.waitFor(2, 5000);
    const got = ids(resumed);
    expect(got[0]).toBeGreaterThan(first ?? NaN);
    // The replay can carry an event the reference client is still receiving live: compare
    // once the reference has it too.
    const last = got.at(-1) ?? NaN;
    await control.waitForEvent((e) => Number(e.id) >= last, 5000, `event ${last} on the reference client`);
    expect(got).toEqual(ids(control).filter((id) => id > (first ?? NaN) && id <= (got.at(-1) ?? NaN)));
  });

  it('the Last-Event-ID header wins over the parameter', async () => {
    const [first, second] = ids(control);
    const resumed = client(`${url}?lastEventId=${first}`, { 'Last-Event-ID': String(second) });
    await resumed.waitFor(1, 5000);
    expect(ids(resumed)[0]).toBeGreaterThan(second ?? NaN);
  });

  it.each(['abc', '-1', '12345678901234567', ''])('lastEventId=%j is a 400 before the stream opens', async (value) => {
    const res = await request(m.app.baseUrl).get('/v1/realtime/arbitrage').query({ lastEventId: value }).expect(400);
    // An empty value is refused first by the input guard, as for every parameter.
    const message = value === '' ? 'lastEventId must not be empty' : 'lastEventId must be an event id of 1 to 16 digits';
    expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });
});
