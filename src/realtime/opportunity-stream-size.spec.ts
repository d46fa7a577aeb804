import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SseFrame } from '../common/sse/sse-frame.js';
import type { AppConfig } from '../config/app-config.js';
import type { BookLevel, DepthBook } from '../market-data/depth/depth-book.js';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import { MarketCostsBook } from '../market-data/market-costs.book.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { InProcessQuoteTickBus } from '../market-data/quote-tick-bus.js';
import { RouteEpisodeQueue } from '../opportunity-history/route-episodes.js';
import { parseOpportunityFilter } from './opportunity-filter.js';
import { type OpportunityDepth, OpportunityStreamService, type PublishedOpportunity } from './opportunity-stream.service.js';
import { flatLevels } from './depth.engine.js';

const T0 = 1_800_000_000_000;
const config = {
  realtime: { minProfitPercent: 0.1, debounceMs: 200, pricesIntervalMs: 1000, netReferenceUsdt: 1000 },
  marketData: { exchanges: ['binance', 'bybit', 'okx', 'gate', 'bitget'] },
  history: { recorderEnabled: true },
  scaleOut: { role: 'all', redis: null },
} as unknown as AppConfig;

/** Books by exchange, unknown after 5 s as DepthService judges them; route events recorded. */
class FakeDepth implements OpportunityDepth {
  readonly books = new Map<string, DepthBook>();
  readonly events: string[] = [];
  routeOpened(r: { buyExchange: string; sellExchange: string }): void {
    this.events.push(`open ${r.buyExchange}>${r.sellExchange}`);
  }
  routeTouched(): void {}
  routeEnded(r: { buyExchange: string; sellExchange: string }): void {
    this.events.push(`end ${r.buyExchange}>${r.sellExchange}`);
  }
  knownBook(exchange: ExchangeName, _market: Market, ticker: string, now: number): DepthBook | null {
    const book = this.books.get(`${exchange}|${ticker}`);
    return book && now - book.receivedAt <= 5000 ? book : null;
  }
  set(exchange: ExchangeName, bids: BookLevel[], asks: BookLevel[], receivedAt: number): void {
    this.books.set(`${exchange}|ETH-USDT`, { exchange, market: 'SPOT', ticker: 'ETH-USDT', bids: flatLevels(bids), asks: flatLevels(asks), receivedAt });
  }
}

const payload = (frame: SseFrame): Record<string, unknown> => JSON.parse(frame.bytes.toString('utf8').split('data: ')[1] ?? '') as Record<string, unknown>;

describe('OpportunityStreamService: events priced at a size from both order books', () => {
  let now: number;
  let bus: InProcessQuoteTickBus;
  let depth: FakeDepth;
  let service: OpportunityStreamService;
  let episodes: RouteEpisodeQueue;
  const tick = (exchange: ExchangeName, bid: number, ask: number) =>
    bus.publish({ exchange, market: 'SPOT', ticker: 'ETH-USDT', bid, ask, bidQty: 1, askQty: 1, exchangeTime: null, receivedAt: now });
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };
  const watch = (query: Record<string, unknown> | null, lastId: number | null = null) => {
    const got: SseFrame[] = [];
    const filter = query ? parseOpportunityFilter(query, ['binance', 'okx']) : null;
    const sub = service.frames(lastId, filter).subscribe((f) => got.push(f));
    return { got, sub };
  };

  beforeEach(async () => {
    vi.useFakeTimers();
    now = T0;
    const clock = { now: () => now };
    bus = new InProcessQuoteTickBus();
    const costs = new MarketCostsBook({
      fetchTradingFees: (e) => Promise.resolve([{ ticker: 'ETH-USDT', takerPercent: e === 'binance' ? 0.075 : 0.08 }]),
      fetchNetworks: (e) => Promise.resolve([{ asset: 'ETH', network: 'ERC20', withdrawEnabled: true, depositEnabled: true, withdrawFee: e === 'binance' ? 0.0005 : 0.001 }]),
    });
    await costs.refresh('binance');
    await costs.refresh('okx');
    depth = new FakeDepth();
    episodes = new RouteEpisodeQueue(config);
    service = new OpportunityStreamService(config, bus, clock, new QuoteBook(bus, clock), costs, episodes, { isExcluded: () => false }, depth);
    service.onModuleInit();
  });
  afterEach(() => {
    service.onModuleDestroy();
    vi.useRealTimers();
  });

  it('tells the depth service when a route opens and ends', async () => {
    tick('binance', 2999, 3000);
    tick('okx', 3009, 3010);
    await advance(100);
    tick('okx', 3000, 3001);
    expect(depth.events).toEqual(['open binance>okx', 'end binance>okx']);
  });

  it('size: null while either book is unknown (not held, or older than 5 s)', async () => {
    const { got, sub } = watch(null);
    depth.set('binance', [[2999, 1]], [[3000, 1]], now - 5001);
    depth.set('okx', [[3009, 1]], [[3010, 1]], now);
    tick('binance', 2999, 3000);
    tick('okx', 3009, 3010);
    await advance(200);
    sub.unsubscribe();
    expect(got).toHaveLength(1);
    expect(payload(got[0]).size).toBeNull();
  });

  it('the reference notional walks both books; a client\'s size is priced for its group, once, under the same id', async () => {
    // binance asks 0.5 at 3000 then 3001; okx bids 0.2 at 3009 then 3008.
    depth.set('binance', [[2999, 1]], [[3000, 0.5], [3001, 1]], now - 40);
    depth.set('okx', [[3009, 0.2], [3008, 10]], [[3010, 1]], now - 10);
    const plain = watch(null);
    const small = watch({ size: '100' });
    const small2 = watch({ size: '100.0' });
    expect(service.filterGroupCount).toBe(2);
    tick('binance', 2999, 3000);
    tick('okx', 3009, 3010);
    await advance(200);
    // 1000 USDT buys 1/3 ETH at 3000; sold 0.2 at 3009 + 0.1333… at 3008 = 1002.8666…, avg 3008.6.
    // Net (1002.8666… − 1000 − 0.0005 × 3000) ÷ 1000 × 100 − 0.075 − 0.08 = −0.01833333. Books 40 and 10 ms old.
    const size = payload(plain.got[0]).size as Record<string, number>;
    expect(size).toMatchObject({ notionalUsdt: 1000, buyAvgPrice: 3000, sellAvgPrice: 3008.6, filledUsdt: 1000, netProfitPercent: -0.01833333, depthAgeMs: 240 });
    // 100 USDT: 1/30 ETH, all at 3009: (100.3 − 100 − 1.5) ÷ 100 × 100 − 0.155 = −1.355.
    const sized = payload(small.got[0]).size as Record<string, number>;
    expect(sized).toMatchObject({ notionalUsdt: 100, buyAvgPrice: 3000, sellAvgPrice: 3009, filledUsdt: 100, netProfitPercent: -1.355 });
    expect(small2.got[0]).toBe(small.got[0]); // one frame per group
    expect(small.got[0]?.id).toBe(plain.got[0]?.id);
    for (const c of [plain, small, small2]) c.sub.unsubscribe();
  });

  it('minSize passes on size.maxSizeUsdt, against the client\'s minNetProfit; replay re-prices at the client\'s size', async () => {
    // 1 ETH a side at 3000 / 3030 (1 % gross), fees 0.155 %, withdrawal 1.5 USD: net ≥ 0 from 177.5 USDT on, up to the book (3000).
    depth.set('binance', [[2999, 1]], [[3000, 1]], now);
    depth.set('okx', [[3030, 1]], [[3031, 1]], now);
    const all = watch({ minSize: '3000' });
    const none = watch({ minSize: '3000', minNetProfit: '0.9' });
    tick('binance', 2999, 3000);
    tick('okx', 3030, 3031);
    await advance(200);
    expect(all.got).toHaveLength(1);
    expect((payload(all.got[0]).size as Record<string, number>).maxSizeUsdt).toBe(3000);
    // Net at most 1 − 0.155 − 0.05 = 0.795 < 0.9: no size qualifies.
    expect(none.got).toHaveLength(0);
    const replay = watch({ size: '500' }, 0);
    expect(replay.got).toHaveLength(1);
    expect((payload(replay.got[0]).size as Record<string, number>).notionalUsdt).toBe(500);
    for (const c of [all, none, replay]) c.sub.unsubscribe();
  });

  it('pricingsOf: a published event as another consumer\'s filter prices it (the alert rules), the same figures the stream gives', async () => {
    depth.set('binance', [[2999, 1]], [[3000, 1]], now);
    depth.set('okx', [[3030, 1]], [[3031, 1]], now);
    const published: PublishedOpportunity[] = [];
    const sub = service.published.subscribe((p) => published.push(p));
    tick('binance', 2999, 3000);
    tick('okx', 3030, 3031);
    await advance(200);
    sub.unsubscribe();
    expect(published).toHaveLength(1);
    const pricings = service.pricingsOf(published[0]);
    const at500 = pricings.for(parseOpportunityFilter({ size: '500' }, ['binance', 'okx'])).event;
    expect(at500.size).toMatchObject({ notionalUsdt: 500, maxSizeUsdt: 3000 });
    expect(pricings.for(null).event).toBe(published[0].event);
    // Net at most 0.795 %: against minNetProfit 0.9 no size qualifies.
    expect(pricings.for(parseOpportunityFilter({ minNetProfit: '0.9' }, ['binance', 'okx'])).event.size?.maxSizeUsdt).toBe(0);
  });

  it('a closing episode carries the maxSizeUsdt of its most profitable sized event to the recorder', async () => {
    depth.set('binance', [[2999, 1]], [[3000, 1]], now);
    depth.set('okx', [[3030, 1]], [[3031, 1]], now);
    tick('binance', 2999, 3000);
    tick('okx', 3030, 3031); // 1 % gross: the whole book, 3000 USDT, nets ≥ 0
    await advance(200);
    depth.set('okx', [[3010, 0.1]], [[3031, 1]], now);
    tick('okx', 3010, 3031); // less profitable, thinner: not the peak
    await advance(200);
    tick('okx', 3000, 3001); // closes
    const [episode] = episodes.drain().episodes;
    expect(episode?.peakMaxSizeUsdt).toBe(3000);
  });
});
