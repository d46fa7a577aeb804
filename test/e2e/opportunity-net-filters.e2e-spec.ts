import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MarketCostsJob } from '../../src/market-data/market-costs.job.js';
import { MARKET_DATA_SOURCE } from '../../src/market-data/market-data.constants.js';
import type { MarketDataSource } from '../../src/market-data/market-data-source.js';
import { OpportunityStreamService } from '../../src/realtime/opportunity-stream.service.js';
import { SseTestClient } from '../utils/sse-client.js';
import { type MarketFixture, type SimQuote, startMarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

interface Opportunity {
  ticker: string;
  buyExchange: string;
  sellExchange: string;
  profitPercentAskBid: number;
  netProfitPercent: number;
  network: string | null;
  transferable: boolean;
  costsEstimated: boolean;
  openedAt: string;
  ageMs: number;
}

const EXCHANGES = ['binance', 'okx', 'bitget'];
const open: SseTestClient[] = [];
const parsed = (c: SseTestClient): Opportunity[] => c.events.map((e) => JSON.parse(e.data) as Opportunity);
const tickersOf = (c: SseTestClient) => new Set(parsed(c).map((o) => o.ticker));

/** Quotes of one ticker on the three exchanges: buy on `buy` at `ask`, sell on `sell` at `bid`, the third in between. */
const route = (ticker: string, buy: string, ask: number, sell: string, bid: number): SimQuote[] => {
  const third = EXCHANGES.find((e) => e !== buy && e !== sell)!;
  const mid = (ask + bid) / 2;
  return [
    { exchange: buy, market: 'SPOT', ticker, bid: ask - 0.01, ask },
    { exchange: sell, market: 'SPOT', ticker, bid, ask: bid + 0.01 },
    { exchange: third, market: 'SPOT', ticker, bid: mid - 0.005, ask: mid + 0.005 },
  ];
};
const flat = (ticker: string, mid: number): SimQuote[] =>
  EXCHANGES.map((exchange) => ({ exchange, market: 'SPOT' as const, ticker, bid: mid, ask: mid + 0.01 }));

describe('opportunity stream: net spread, transfer state, filters; route episodes and lifetimes', () => {
  let m: MarketFixture;
  let url: (path: string) => string;
  let btcNetwork: string;
  const client = (path: string, headers: Record<string, string> = {}) => {
    const c = new SseTestClient(url(path), [], headers);
    open.push(c);
    return c;
  };
  /** Books with no spread on every ticker, applied before it resolves. */
  const putFlat = async () => {
    const quotes = [...flat('BTC-USDT', 100), ...flat('ETH-USDT', 3000), ...flat('SOL-USDT', 150)];
    await m.putQuotes(quotes);
    await m.booked(quotes);
  };
  const putNetworks = async (body: unknown) => {
    const res = await fetch(`${m.sim.url}/_sim/networks`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    await m.app.app.get(MarketCostsJob).refresh();
  };

  beforeAll(async () => {
    m = await startMarketFixture(EXCHANGES, ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'], {
      SSE_MAX_PER_IP: '2000',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '1000',
      HISTORY_MIN_SPREAD_PERCENT: '100',
      // Nothing here measures the debounce itself (realtime.e2e-spec does, at 200 ms): a short
      // one makes every wait for an event shorter.
      ARBITRAGE_DEBOUNCE_MS: '50',
      ARBITRAGE_RATE_LIMIT: '100000',
      // okx signs its currency call with these (the simulator accepts any).
      OKX_API_KEY: 'e2e-key',
      OKX_API_SECRET: 'e2e-secret',
      OKX_API_PASSWORD: 'e2e-passphrase',
    });
    url = (path) => `${m.app.baseUrl}${path}`;
    await m.waitConnected();
    await putFlat();
    const open = { asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: true };
    await putNetworks([{ ...open, exchange: 'bitget', withdrawFee: 0.0005 }, { ...open, exchange: 'okx', withdrawFee: 0.0003 }]);
    const bitget = await m.app.app.get<MarketDataSource>(MARKET_DATA_SOURCE).fetchNetworks?.('bitget');
    btcNetwork = bitget?.[0]?.network ?? 'none';
  });
  afterEach(async () => {
    open.splice(0).forEach((c) => c.close());
    await putFlat();
  });
  afterAll(async () => {
    await m?.close();
  });

  describe('invalid filters answer 400 in the `errors` rule shape before the stream opens', () => {
    const cases: [Record<string, string>, string][] = [
      [{ minProfit: 'abc' }, 'minProfit must be a number from 0 to 100'],
      [{ minProfit: '100.01' }, 'minProfit must be a number from 0 to 100'],
      // The input guard answers an empty value first, for every query parameter.
      [{ minProfit: '' }, 'minProfit must not be empty'],
      [{ minNetProfit: '-101' }, 'minNetProfit must be a number from -100 to 100'],
      [{ transferable: 'yes' }, 'transferable must be true or false'],
      [{ exchanges: 'binance,gate' }, 'exchanges must be a comma list of binance, okx, bitget'],
      [{ exchanges: 'binance' }, 'exchanges must name at least two exchanges: a route buys on one and sells on another'],
      [{ tickers: 'BTC-USDT,NOPE' }, 'tickers must be a comma list of at most 100 tickers such as BTC-USDT'],
    ];
    it.each(cases)('%j → %s', async (query, message) => {
      const res = await request(m.app.baseUrl).get('/v1/realtime/arbitrage').query(query).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    });

    it('a parameter given twice is invalid', async () => {
      const res = await request(m.app.baseUrl).get('/v1/realtime/arbitrage?tickers=BTC-USDT&tickers=ETH-USDT').expect(400);
      expect(res.body.message).toBe('tickers must be a comma list of at most 100 tickers such as BTC-USDT');
    });
  });

  it('net spread, network and transfer state from the simulated fees and networks; each client gets what its filter passes', async () => {
    const plain = client('/v1/realtime/arbitrage');
    const eth = client('/v1/realtime/arbitrage?tickers=ethusdt');
    const gross = client('/v1/realtime/arbitrage?minProfit=0.5');
    const pair = client('/v1/realtime/arbitrage?exchanges=OKX,binance');
    const movable = client('/v1/realtime/arbitrage?transferable=true');
    const netAt = client('/v1/realtime/arbitrage?minNetProfit=0.745');
    const netOver = client('/v1/realtime/arbitrage?minNetProfit=0.7451');
    const all = client('/v1/realtime/arbitrage?minProfit=0&transferable=false');
    await Promise.all(open.map((c) => c.waitOpen()));
    expect(m.app.app.get(OpportunityStreamService).filterGroupCount).toBe(8);
    // BTC: buy on bitget at 100, sell on okx at 101; ETH: buy on binance at 3000, sell on okx at 3009.
    await m.putQuotes([...route('BTC-USDT', 'bitget', 100, 'okx', 101), ...route('ETH-USDT', 'binance', 3000, 'okx', 3009)]);
    const has = (...tickers: string[]) => (events: { data: string }[]) =>
      tickers.every((t) => events.some((e) => (JSON.parse(e.data) as Opportunity).ticker === t));
    await plain.waitUntil(has('BTC-USDT', 'ETH-USDT'), 3000, 'both events');
    await Promise.all([
      all.waitUntil(has('BTC-USDT', 'ETH-USDT'), 3000, 'both events'),
      eth.waitUntil(has('ETH-USDT'), 3000, 'the ETH event'),
      pair.waitUntil(has('ETH-USDT'), 3000, 'the ETH event'),
      ...[gross, movable, netAt].map((c) => c.waitUntil(has('BTC-USDT'), 3000, 'the BTC event')),
    ]);
    // A marker every filter above 0.7451 net passes: a client's stream is in order, so once
    // netOver has it, anything it was sent before would be there too.
    await m.putQuotes(route('BTC-USDT', 'bitget', 100, 'okx', 102));
    const isMarker = (e: { data: string }) => (JSON.parse(e.data) as Opportunity).profitPercentAskBid === 2;
    await netOver.waitForEvent(isMarker, 3000, 'the 2 % BTC marker');
    expect(netOver.events.findIndex(isMarker)).toBe(0);
    netOver.events.splice(0);
    await Promise.all([plain, gross, movable, netAt].map((c) => c.waitForEvent(isMarker, 3000, 'the 2 % BTC marker')));
    const btc = parsed(plain).find((o) => o.ticker === 'BTC-USDT');
    const ethEvent = parsed(plain).find((o) => o.ticker === 'ETH-USDT');
    // Taker fees as the simulated markets publish them: bitget 0.1 %, okx 0.15 %. BTC moves on the common open network
    // at bitget's fee 0.0005 BTC × 100 = 0.05 USD ÷ 1000 × 100 = 0.005: net = 1 − 0.1 − 0.15 − 0.005 = 0.745.
    expect(btc).toMatchObject({
      buyExchange: 'bitget', sellExchange: 'okx', profitPercentAskBid: 1,
      netProfitPercent: 0.745, network: btcNetwork, transferable: true, costsEstimated: false,
    });
    // ETH: networks never set, so unknown: the 1 USD default (0.1 %), estimated, not transferable:
    // 0.3 − 0.1 (binance) − 0.15 (okx) − 0.1 = −0.05.
    expect(ethEvent).toMatchObject({
      buyExchange: 'binance', sellExchange: 'okx', netProfitPercent: -0.05, network: null, transferable: false, costsEstimated: true,
    });
    expect(tickersOf(plain)).toEqual(new Set(['BTC-USDT', 'ETH-USDT']));
    expect(tickersOf(all)).toEqual(new Set(['BTC-USDT', 'ETH-USDT']));
    expect(tickersOf(eth)).toEqual(new Set(['ETH-USDT']));
    expect(tickersOf(gross)).toEqual(new Set(['BTC-USDT']));
    expect(tickersOf(pair)).toEqual(new Set(['ETH-USDT']));
    expect(tickersOf(movable)).toEqual(new Set(['BTC-USDT']));
    expect(tickersOf(netAt)).toEqual(new Set(['BTC-USDT']));
    expect(netOver.events).toEqual([]);
    // A filtered client's ids are the unfiltered stream's ids (the same frames).
    const plainIds = new Set(plain.events.map((e) => e.id));
    for (const e of [...eth.events, ...gross.events, ...movable.events]) expect(plainIds.has(e.id)).toBe(true);

    // Replay after Last-Event-ID applies the filter.
    const replay = client('/v1/realtime/arbitrage?tickers=BTC-USDT', { 'Last-Event-ID': String(Number(plain.events[0].id) - 1) });
    await replay.waitFor(1, 3000);
    expect(tickersOf(replay)).toEqual(new Set(['BTC-USDT']));
  });

  it('a closed deposit network: no network, not transferable, and transferable=true clients get nothing', async () => {
    await putNetworks([{ exchange: 'okx', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.0003 }]);
    const plain = client('/v1/realtime/arbitrage?tickers=BTC-USDT');
    const movable = client('/v1/realtime/arbitrage?transferable=true');
    await Promise.all([plain.waitOpen(), movable.waitOpen()]);
    await m.putQuotes(route('BTC-USDT', 'bitget', 100, 'okx', 101));
    const [event] = await plain.waitFor(1, 3000);
    // The fee is still bitget's cheapest withdrawal, so the net is unchanged.
    expect(JSON.parse(event.data)).toMatchObject({ netProfitPercent: 0.745, network: null, transferable: false, costsEstimated: false });
    await putNetworks([{ exchange: 'okx', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0003 }]);
    // A marker: with the deposit open again the route is transferable, and the first event
    // transferable=true clients get is this one; nothing from the closed period came before it.
    await m.putQuotes(route('BTC-USDT', 'bitget', 100, 'okx', 101.5));
    await movable.waitFor(1, 3000);
    expect(parsed(movable).map((o) => o.transferable)).not.toContain(false);
  });

  it('an episode opens and closes through the simulator, is stored, and counts in the lifetimes', async () => {
    const lifetimes = async () => (await request(m.app.baseUrl).get('/v1/opportunity-history/lifetimes')
      .query({ ticker: 'sol-usdt', buy: 'binance', sell: 'okx', days: 1 }).expect(200)).body as Record<string, unknown>;
    // Setting the books at start may already have crossed quotes for an instant: count from here.
    const before = (await lifetimes()).episodes as number;
    const c = client('/v1/realtime/arbitrage?tickers=SOL-USDT');
    await c.waitOpen();
    const openedFrom = Date.now();
    await m.putQuotes(route('SOL-USDT', 'binance', 150, 'okx', 151));
    const [first] = await c.waitFor(1, 3000);
    const event = JSON.parse(first.data) as Opportunity;
    // Opened by that push: after it was sent, before its event arrived (the tick crosses a worker
    // thread and the debounce, which under CI load can take longer than the push's answer).
    expect(Date.parse(event.openedAt)).toBeGreaterThanOrEqual(openedFrom - 5);
    expect(Date.parse(event.openedAt)).toBeLessThanOrEqual(first.at);
    const closedFrom = Date.now();
    await m.putQuotes(flat('SOL-USDT', 150));
    // The recorder stores closed episodes every HISTORY_INTERVAL_MS (1 s here). An instant cross
    // while the books were set at start may be stored in the same round: wait for this episode
    // (the newest, opened at the event's openedAt), then the lifetimes count every stored one.
    const newest = () => m.app.app.get(DataSource).query<Record<string, unknown>[]>(
      `SELECT opened_at, closed_at, lifetime_ms::int8::float8 AS lifetime_ms, peak_gross_percent, peak_net_percent, transferable, costs_estimated,
              count(*) OVER () AS stored
         FROM route_episodes WHERE ticker = 'SOL-USDT' AND buy_exchange = 'binance' AND sell_exchange = 'okx' ORDER BY opened_at DESC LIMIT 1`,
    );
    const [stored] = await until(newest, (rows) => rows.length > 0 && new Date(rows[0].opened_at as string).toISOString() === event.openedAt, 10_000, 200);
    const closedTo = Date.now();
    const body = await lifetimes();
    expect(body).toMatchObject({ ticker: 'SOL-USDT', buy: 'binance', sell: 'okx', days: 1, episodes: Number(stored.stored) });
    expect(body.episodes).toBeGreaterThanOrEqual(before + 1);
    // Opened by the push of the spread (the event's openedAt), closed by the push of flat books.
    expect(new Date(stored.opened_at as string).toISOString()).toBe(event.openedAt);
    const closedAt = new Date(stored.closed_at as string).getTime();
    expect(closedAt).toBeGreaterThanOrEqual(closedFrom - 5);
    expect(closedAt).toBeLessThanOrEqual(closedTo);
    // Peak gross (151 − 150) ÷ 150 × 100 = 0.666666… → 0.66666667; net with binance 0.1 %, okx 0.15 % and the
    // 1 USD default (SOL networks unknown): 0.666666… − 0.1 − 0.15 − 0.1 = 0.316666… → 0.31666667; not transferable, estimated.
    expect(stored).toMatchObject({
      lifetime_ms: closedAt - Date.parse(event.openedAt), peak_gross_percent: 0.66666667, peak_net_percent: 0.31666667,
      transferable: false, costs_estimated: true,
    });
  });

  it('episodes record the transfer state /_sim/networks set when they closed', async () => {
    const newest = async (n: number) => m.app.app.get(DataSource).query<Record<string, unknown>[]>(
      `SELECT transferable, costs_estimated, peak_gross_percent, peak_net_percent FROM route_episodes
        WHERE ticker = 'BTC-USDT' AND buy_exchange = 'bitget' AND sell_exchange = 'okx' ORDER BY opened_at DESC LIMIT $1`, [n]);
    const count = async () => (await m.app.app.get(DataSource).query<{ n: number }[]>(
      `SELECT count(*)::int4 AS n FROM route_episodes WHERE ticker = 'BTC-USDT' AND buy_exchange = 'bitget' AND sell_exchange = 'okx'`))[0].n;
    const episodeOf = async () => {
      const before = await count();
      // The route's event shows the episode open before the flat books close it.
      const c = client('/v1/realtime/arbitrage?tickers=BTC-USDT');
      await c.waitOpen();
      await m.putQuotes(route('BTC-USDT', 'bitget', 100, 'okx', 101));
      await c.waitFor(1, 3000);
      c.close();
      await m.putQuotes(flat('BTC-USDT', 100));
      await until(count, (n) => n !== before, 10_000, 200);
      expect(await count()).toBe(before + 1);
    };
    await episodeOf();
    await putNetworks([{ exchange: 'okx', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.0003 }]);
    await episodeOf();
    await putNetworks([{ exchange: 'okx', asset: 'BTC', network: 'BTC', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0003 }]);
    // Newest first: closed while okx's deposit was closed, then while it was open. Peak 1 % gross, 0.745 net both times.
    expect(await newest(2)).toEqual([
      { transferable: false, costs_estimated: false, peak_gross_percent: 1, peak_net_percent: 0.745 },
      { transferable: true, costs_estimated: false, peak_gross_percent: 1, peak_net_percent: 0.745 },
    ]);
  });

  it('/docs-json shows the new event members, the filter parameters and the lifetimes endpoint', async () => {
    const doc = (await request(m.app.baseUrl).get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const event = doc.components.schemas.OpportunityEventDto;
    for (const member of ['netProfitPercent', 'network', 'transferable', 'costsEstimated', 'openedAt', 'ageMs']) {
      expect(event.properties[member]).toBeDefined();
      expect(event.required).toContain(member);
    }
    const arbitrage = doc.paths['/v1/realtime/arbitrage'].get;
    const query = arbitrage.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    // size and minSize: the feature.
    expect(query.sort()).toEqual(['exchanges', 'lastEventId', 'minNetProfit', 'minProfit', 'minSize', 'size', 'tickers', 'ticket', 'transferable']);
    expect(event.properties.size).toBeDefined();
    expect(doc.components.schemas.OpportunitySizeDto.required?.sort()).toEqual(
      ['buyAvgPrice', 'depthAgeMs', 'filledUsdt', 'maxSizeUsdt', 'netProfitPercent', 'notionalUsdt', 'sellAvgPrice']);
    expect(arbitrage.responses['400']).toBeDefined();
    const lifetimes = doc.paths['/v1/opportunity-history/lifetimes'].get;
    expect(lifetimes.parameters!.map((p) => p.name).sort()).toEqual(['buy', 'days', 'sell', 'ticker']);
    expect(doc.components.schemas.RouteLifetimesDto.properties).toHaveProperty('transferableShare');
    expect(doc.components.schemas.RouteLifetimesDto.properties).toHaveProperty('medianMaxSizeUsdt');
  });
});
