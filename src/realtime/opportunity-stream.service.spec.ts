import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SseFrame } from '../common/sse/sse-frame.js';
import type { AppConfig } from '../config/app-config.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { MarketCostsBook } from '../market-data/market-costs.book.js';
import type { CurrencyNetwork } from '../market-data/market-data-source.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import { RouteEpisodeQueue } from '../opportunity-history/route-episodes.js';
import { RouteChangeQueue } from '../opportunity-history/route-changes.js';
import { parseOpportunityFilter } from './opportunity-filter.js';
import { OpportunityStreamService } from './opportunity-stream.service.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { shareOneHiddenClass } from '../../test/utils/hidden-class.js';

const T0 = 1_800_000_000_000;
const config = {
  realtime: { minProfitPercent: 0.1, debounceMs: 200, pricesIntervalMs: 1000, netReferenceUsdt: 1000 },
  marketData: { exchanges: ['binance', 'bybit', 'okx', 'gate', 'bitget'] },
  history: { recorderEnabled: true, minSpreadPercent: 0 },
  scaleOut: { role: 'all', redis: null },
} as unknown as AppConfig;
const ERC20 = (withdrawFee: number, depositEnabled = true): CurrencyNetwork =>
  ({ asset: 'ETH', network: 'ERC20', withdrawEnabled: true, depositEnabled, withdrawFee });

describe('OpportunityStreamService', () => {
  let now: number;
  let bus: InProcessQuoteTickBus;
  let costs: MarketCostsBook;
  let episodes: RouteEpisodeQueue;
  let changes: RouteChangeQueue;
  let service: OpportunityStreamService;
  let okxDepositOpen: boolean;
  let excluded: Set<string>;
  const tick = (exchange: ExchangeName, ticker: string, bid: number, ask: number) =>
    bus.publish({ exchange, market: 'SPOT', ticker, bid, ask, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: now });
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  beforeEach(async () => {
    vi.useFakeTimers();
    now = T0;
    okxDepositOpen = true;
    excluded = new Set();
    const clock = { now: () => now };
    bus = new InProcessQuoteTickBus();
    costs = new MarketCostsBook({
      fetchTradingFees: (e) => Promise.resolve(e === 'binance' ? [{ ticker: 'ETH-USDT', takerPercent: 0.075 }] : [{ ticker: 'ETH-USDT', takerPercent: 0.08 }]),
      fetchNetworks: (e) => Promise.resolve(e === 'binance' ? [ERC20(0.0005)] : [ERC20(0.001, okxDepositOpen)]),
    });
    await costs.refresh('binance');
    await costs.refresh('okx');
    episodes = new RouteEpisodeQueue(config);
    changes = new RouteChangeQueue(config);
    service = new OpportunityStreamService(
      config, bus, clock, new QuoteBook(bus, clock), costs, episodes, { isExcluded: (e, t) => excluded.has(`${e}|${t}`) }, null, changes,
    );
    service.onModuleInit();
  });
  afterEach(() => {
    service.onModuleDestroy();
    vi.useRealTimers();
  });

  it('an event carries the net spread, network, transfer state, cost flag, openedAt and age', async () => {
    const got: SseFrame[] = [];
    const sub = service.frames(null).subscribe((f) => got.push(f));
    tick('binance', 'ETH-USDT', 2999, 3000);
    await advance(50);
    tick('okx', 'ETH-USDT', 3009, 3010); // opens binance → okx at T0 + 50
    await advance(200); // the debounce fires 200 ms after the first detection
    sub.unsubscribe();
    const event = JSON.parse(got[0].bytes.toString('utf8').split('data: ')[1]) as Record<string, unknown>;
    // net = 0.3 − 0.075 − 0.08 − (0.0005 × 3000 = 1.5 USD ÷ 1000 × 100 = 0.15) = −0.005.
    expect(event).toEqual({
      ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx', buyPrice: 3000, sellPrice: 3009,
      profitPercentAskBid: expect.closeTo(0.3, 10) as number, volume: null, timestamp: new Date(T0 + 250).toISOString(),
      netProfitPercent: -0.005, network: 'ERC20', transferable: true, costsEstimated: false,
      openedAt: new Date(T0 + 50).toISOString(), ageMs: 200, size: null, quoteConversions: [], transferNote: null,
    });
  });

  it('one frame per event whatever the number of clients; each distinct filter is one group', async () => {
    const seen = new Map<string, SseFrame[]>();
    const subscribe = (name: string, query: Record<string, unknown>) => {
      seen.set(name, []);
      return service.frames(null, parseOpportunityFilter(query, ['binance', 'okx'])).subscribe((f) => seen.get(name)!.push(f));
    };
    const subs = [
      subscribe('plain1', {}), subscribe('plain2', {}),
      subscribe('eth1', { tickers: 'ETH-USDT' }), subscribe('eth2', { tickers: 'ethusdt' }),
      subscribe('net', { minNetProfit: '0' }),
    ];
    expect(service.filterGroupCount).toBe(3);
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3009, 3010);
    tick('binance', 'SOL-USDT', 149.9, 150);
    tick('okx', 'SOL-USDT', 151, 151.1);
    await advance(300);
    const ids = (name: string) => seen.get(name)!.map((f) => f.id);
    expect(ids('plain1')).toHaveLength(2);
    expect(ids('eth1')).toEqual([ids('plain1')[0]]);
    // SOL: fees and networks unknown → 0.7333 − 0.1 − 0.1 − 0.1 ≥ 0; ETH's net is −0.005 < 0.
    expect(ids('net')).toEqual([ids('plain1')[1]]);
    // The very same bytes reach every client: serialised once per event.
    expect(seen.get('plain2')![0]).toBe(seen.get('plain1')![0]);
    expect(seen.get('eth2')![0]).toBe(seen.get('plain1')![0]);
    subs.forEach((s) => s.unsubscribe());
    expect(service.filterGroupCount).toBe(0);
    expect(service.clientCount).toBe(0);
  });

  it('Last-Event-ID replay applies the client\'s filter; ids are the unfiltered stream\'s', async () => {
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3009, 3010);
    tick('binance', 'SOL-USDT', 149.9, 150);
    tick('okx', 'SOL-USDT', 151, 151.1);
    await advance(300);
    const all: SseFrame[] = [];
    service.frames(0).subscribe((f) => all.push(f)).unsubscribe();
    expect(all).toHaveLength(2);
    const sol: SseFrame[] = [];
    service.frames(0, parseOpportunityFilter({ tickers: 'SOL-USDT' }, ['binance', 'okx'])).subscribe((f) => sol.push(f)).unsubscribe();
    expect(sol.map((f) => f.id)).toEqual([all.find((f) => f.bytes.includes('SOL-USDT'))!.id]);
    const transferable: SseFrame[] = [];
    service.frames(0, parseOpportunityFilter({ transferable: 'true' }, ['binance', 'okx'])).subscribe((f) => transferable.push(f)).unsubscribe();
    expect(transferable.map((f) => f.id)).toEqual([all.find((f) => f.bytes.includes('ETH-USDT'))!.id]);
  });

  it('a closed network: the event has no network and is not transferable; a closing route hands a priced episode to the queue', async () => {
    const got: SseFrame[] = [];
    const sub = service.frames(null).subscribe((f) => got.push(f));
    // okx stops ERC20 deposits.
    okxDepositOpen = false;
    await costs.refreshKind('okx', 'networks');
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3012, 3013); // 0.4 % peak
    await advance(200);
    await advance(800);
    sub.unsubscribe();
    // Still the buy side's withdrawal fee (0.0005 ETH = 1.5 USD): net = 0.4 − 0.075 − 0.08 − 0.15 = 0.095.
    expect(JSON.parse(got[0].bytes.toString('utf8').split('data: ')[1])).toMatchObject({
      netProfitPercent: 0.095, network: null, transferable: false, costsEstimated: false, openedAt: new Date(T0).toISOString(), ageMs: 200,
    });
    tick('okx', 'ETH-USDT', 3001, 3002); // 0.0333 %: closes at T0 + 1000
    const { episodes: closed } = episodes.drain();
    expect(closed).toEqual([{
      ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx', openedAt: new Date(T0), closedAt: new Date(T0 + 1000),
      peakGrossPercent: 0.4, peakNetPercent: 0.095, peakMaxSizeUsdt: null, transferable: false, costsEstimated: false,
    }]);
  });

  it('a ticker excluded as a name collision on an exchange takes part in no route: its open episode ends at its next tick', async () => {
    const got: SseFrame[] = [];
    const sub = service.frames(null).subscribe((f) => got.push(f));
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3012, 3013); // binance → okx 0.4 %, open from T0
    await advance(300);
    expect(got).toHaveLength(1);
    excluded.add('okx|ETH-USDT');
    await advance(700);
    tick('okx', 'ETH-USDT', 3012, 3013); // still 0.4 %, but okx's ETH is another coin now
    tick('binance', 'ETH-USDT', 2999, 3000);
    await advance(300);
    sub.unsubscribe();
    expect(got).toHaveLength(1);
    expect(episodes.drain().episodes.map((e) => [e.sellExchange, e.closedAt])).toEqual([['okx', new Date(T0 + 1000)]]);
  });

  it('hands the history every spread it publishes, at the publishing time, and the closing spread of the route (rules: recorders)', async () => {
    const events: OpportunityEventDto[] = [];
    const pub = service.published.subscribe((p) => events.push(p.event));
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3009, 3010); // binance → okx 0.3 %, opens at T0
    await advance(200); // published at T0 + 200
    tick('okx', 'ETH-USDT', 3012, 3013); // 0.4 %
    await advance(200); // published at T0 + 400
    await advance(1100);
    tick('okx', 'ETH-USDT', 3001, 3002); // (3001 − 3000) ÷ 3000 = 0.0333… %: closes at T0 + 1500
    await advance(300);
    pub.unsubscribe();
    expect(events.map((e) => [e.timestamp, e.profitPercentAskBid])).toEqual([
      [new Date(T0 + 200).toISOString(), 0.3], [new Date(T0 + 400).toISOString(), 0.4],
    ]);
    expect(changes.drain().changes.map((c) => [c.time - T0, c.buyExchange, c.sellExchange, c.grossSpreadPercent])).toEqual([
      [200, 'binance', 'okx', 0.3], [400, 'binance', 'okx', 0.4], [1500, 'binance', 'okx', 0.03333333],
    ]);
  });

  it('with the recorder off no episode is kept', () => {
    const off = new RouteEpisodeQueue({ history: { recorderEnabled: false } } as unknown as AppConfig);
    off.push({ ticker: 'X-USDT', buyExchange: 'a', sellExchange: 'b', openedAt: new Date(0), closedAt: new Date(1),
      peakGrossPercent: 1, peakNetPercent: 1, peakMaxSizeUsdt: null, transferable: true, costsEstimated: false });
    expect(off.size).toBe(0);
  });

  it('events share one hidden class, whatever their route (a spread per event made one class each: the soak)', async () => {
    const events: OpportunityEventDto[] = [];
    const pub = service.published.subscribe((p) => events.push(p.event));
    for (let i = 0; i < 8; i++) {
      tick('binance', `C${i}-USDT`, 99 + i / 3, 100 + i / 3);
      tick('okx', `C${i}-USDT`, 102 + i / 3, 103 + i / 3);
    }
    await advance(200);
    pub.unsubscribe();
    expect(events).toHaveLength(8);
    expect(Object.keys(events[0] as object)).toEqual([
      'ticker', 'buyExchange', 'sellExchange', 'buyPrice', 'sellPrice', 'profitPercentAskBid', 'volume', 'timestamp',
      'netProfitPercent', 'network', 'transferable', 'costsEstimated', 'openedAt', 'ageMs', 'size', 'quoteConversions', 'transferNote',
    ]);
    expect(shareOneHiddenClass(events)).toBe(true);
  });

  it('publishes each event it detects once, with the id its clients saw (what the ingest role relays)', async () => {
    const published: number[] = [];
    const got: SseFrame[] = [];
    const pub = service.published.subscribe((p) => published.push(p.id));
    const sub = service.frames(null).subscribe((f) => got.push(f));
    tick('binance', 'ETH-USDT', 2999, 3000);
    tick('okx', 'ETH-USDT', 3009, 3010);
    await advance(200);
    pub.unsubscribe();
    sub.unsubscribe();
    expect(published).toHaveLength(1);
    expect(got[0].bytes.toString('utf8')).toContain(`id: ${published[0]}\n`);
  });
});

describe('OpportunityStreamService on an API instance', () => {
  const api = { ...config, scaleOut: { role: 'api', redis: { url: 'redis://x', keyPrefix: 'p:' } } } as unknown as AppConfig;
  const event = { ticker: 'ETH-USDT', buyExchange: 'binance', sellExchange: 'okx' } as unknown as OpportunityEventDto;

  it('detects nothing itself, serves delivered events live and on replay, and never one id twice', () => {
    vi.useFakeTimers();
    const clock = { now: () => T0 };
    const bus = new InProcessQuoteTickBus();
    const costs = new MarketCostsBook({});
    const service = new OpportunityStreamService(api, bus, clock, new QuoteBook(bus, clock), costs, new RouteEpisodeQueue(api), { isExcluded: () => false });
    service.onModuleInit();
    const live: string[] = [];
    const sub = service.frames(null).subscribe((f) => live.push(f.bytes.toString('utf8')));
    bus.publish({ exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 2999, ask: 3000, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: T0 });
    bus.publish({ exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bid: 3009, ask: 3010, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: T0 });
    vi.advanceTimersByTime(1000);
    expect(live).toEqual([]);
    service.deliver({ id: 7, at: T0, event });
    service.deliver({ id: 7, at: T0, event });
    service.deliver({ id: 9, at: T0, event });
    expect(live.map((f) => f.split('\n')[0])).toEqual(['id: 7', 'id: 9']);
    const replay: string[] = [];
    service.frames(6).subscribe((f) => replay.push(f.bytes.toString('utf8').split('\n')[0])).unsubscribe();
    expect(replay).toEqual(['id: 7', 'id: 9']);
    sub.unsubscribe();
    service.onModuleDestroy();
    vi.useRealTimers();
  });
});
