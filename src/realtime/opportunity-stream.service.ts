import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { Observable, Subject, type Subscription, filter } from 'rxjs';
import type { SseFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MarketCostsBook } from '../market-data/market-costs.book.js';
import { DepthService } from '../market-data/depth/depth.service.js';
import { MARKET_CLOCK, QUOTE_STALE_MS, QUOTE_TICK_BUS } from '../market-data/market-data.constants.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { type CollisionGuard, NameCollisions } from '../market-data/name-collisions.js';
import type { QuoteTickBus } from '../market-data/quote-tick-bus.js';
import { RouteEpisodeQueue } from '../opportunity-history/route-episodes.js';
import { RouteChangeQueue } from '../opportunity-history/route-changes.js';
import { ArbitrageDetector, type ClosedEpisode, type Opportunity } from './arbitrage-detector.engine.js';
import { OpportunityFanOut, type PublishedOpportunity } from './opportunity-fan-out.js';
import type { OpportunityFilter } from './opportunity-filter.js';
import { OpportunityDebouncer } from './opportunity-debouncer.js';
import { type OpportunityDepth, OpportunityPricer } from './opportunity-pricer.js';
import type { EventPricings } from './opportunity-sizing.js';
import { UsdcQuotes } from './usdc-quotes.js';

/** How often episodes whose quotes went stale without a tick are ended (at the moment they lapsed). */
export const EPISODE_SWEEP_MS = 1000;

export type { PublishedOpportunity } from './opportunity-fan-out.js';

export type { OpportunityDepth } from './opportunity-pricer.js';

/**
 * Detects cross-exchange spot opportunities from the shared tick stream (rules: opportunities),
 * debounces them per ticker (rules: debounce) and publishes each as ONE event with an increasing
 * id. Pricing an event is OpportunityPricer's; the replay ring and the filter groups of the
 * clients are OpportunityFanOut's; the Redis relay reads `published` and calls `deliver`.
 */
@Injectable()
export class OpportunityStreamService implements OnModuleInit, OnModuleDestroy {
  private readonly detector: ArbitrageDetector;
  private readonly debouncer: OpportunityDebouncer<Opportunity>;
  private readonly pricer: OpportunityPricer;
  private readonly fanOut: OpportunityFanOut;
  /** USDC venues' quotes in USDT for the detector, and the conversions behind their events. */
  private readonly usdc: UsdcQuotes;
  private subscription: Subscription | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly detects: boolean;
  private readonly publishedSubject = new Subject<PublishedOpportunity>();
  /** Every event this process detects, as published (the Redis relay forwards them). */
  readonly published: Observable<PublishedOpportunity> = this.publishedSubject.asObservable();
  // Ids start at the current time in ms so they keep increasing across restarts.
  private lastId: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(QUOTE_TICK_BUS) private readonly bus: QuoteTickBus,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    book: QuoteBook,
    costs: MarketCostsBook,
    private readonly episodes: RouteEpisodeQueue,
    @Inject(NameCollisions) private readonly collisions: CollisionGuard,
    @Optional() @Inject(DepthService) private readonly depth: OpportunityDepth | null = null,
    @Optional() @Inject(RouteChangeQueue) private readonly changes: RouteChangeQueue | null = null,
  ) {
    const netReferenceUsdt = config.realtime.netReferenceUsdt;
    this.usdc = new UsdcQuotes(config.marketData.exchanges, book, QUOTE_STALE_MS);
    this.pricer = new OpportunityPricer(costs, book, depth, netReferenceUsdt, this.usdc);
    this.fanOut = new OpportunityFanOut(netReferenceUsdt, () => this.clock.now());
    // An API instance detects nothing: it serves the ingest process's events.
    this.detects = config.scaleOut.role !== 'api';
    this.detector = new ArbitrageDetector({
      minProfitPercent: config.realtime.minProfitPercent,
      staleMs: QUOTE_STALE_MS,
      onEpisodeClosed: (episode) => this.episodeClosed(episode),
      onRouteOpened: (route, at, spread) => this.depth?.routeOpened(route, at, spread),
      onRouteEnded: (route, at) => this.depth?.routeEnded(route, at),
    });
    this.debouncer = new OpportunityDebouncer(
      config.realtime.debounceMs,
      (ticker) => this.detector.best(ticker, this.clock.now()),
      (opportunity) => this.publish(opportunity),
    );
    this.lastId = clock.now();
  }

  onModuleInit(): void {
    if (!this.detects) return;
    this.subscription = this.bus.ticks.pipe(filter((tick) => tick.market === 'SPOT')).subscribe((raw) => {
      const tick = this.usdc.forDetector(raw, this.clock.now());
      // A USDC quote without a published USDC/USDT rate is compared with nothing.
      if (!tick) {
        if (this.usdc.isUsdc(raw.exchange) && raw.ticker.endsWith('-USDC')) this.detector.withdraw(raw.exchange, `${raw.ticker.slice(0, -5)}-USDT`, raw.receivedAt);
        return;
      }
      // A ticker naming another coin on this exchange takes part in no route.
      if (this.collisions.isExcluded(tick.exchange, tick.ticker)) {
        this.detector.withdraw(tick.exchange, tick.ticker, tick.receivedAt);
        return;
      }
      this.detector.apply(tick);
      if (!this.debouncer.isPending(tick.ticker) && this.detector.best(tick.ticker, this.clock.now())) {
        this.debouncer.detected(tick.ticker);
      }
    });
    this.sweepTimer = setInterval(() => this.detector.sweep(this.clock.now()), EPISODE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.debouncer.clear();
    this.fanOut.complete();
    this.publishedSubject.complete();
  }

  /** Whether a ticker's debounce is running: an event for it may then come sooner than the debounce after its route opened. */
  debouncing(ticker: string): boolean {
    return this.debouncer.isPending(ticker);
  }

  /** Ids continue after this one (the last the Redis stream holds), so they increase across ingest restarts. */
  continueIdsAfter(id: number): void {
    this.lastId = Math.max(this.lastId, id);
  }

  /** Hands an event to the replay ring and the clients (see OpportunityFanOut.deliver). */
  deliver(published: PublishedOpportunity): void {
    this.fanOut.deliver(published);
  }

  /** The id of the newest event delivered here (0 before any). */
  get lastDeliveredId(): number {
    return this.fanOut.lastDeliveredId;
  }

  /** Replayed frames after `lastEventId` that pass the filter, then live ones (see OpportunityFanOut.frames). */
  frames(lastEventId: number | null, clientFilter: OpportunityFilter | null = null): Observable<SseFrame> {
    return this.fanOut.frames(lastEventId, clientFilter);
  }

  get clientCount(): number {
    return this.fanOut.clientCount;
  }

  /** Distinct filters with at least one client (the unfiltered stream counts as one). */
  get filterGroupCount(): number {
    return this.fanOut.filterGroupCount;
  }

  /**
   * A published event as each filter prices it (its `size` at the filter's notional and net
   * threshold), re-priced once per distinct pricing: for consumers other than the SSE clients,
   * such as alert rules with a size condition. Without the event's books, every filter sees it as published.
   */
  pricingsOf(published: PublishedOpportunity): EventPricings {
    return this.fanOut.pricingsOf(published);
  }

  private publish(opportunity: Opportunity): void {
    const now = this.clock.now();
    const id = (this.lastId = Math.max(this.lastId + 1, now));
    const { ticker, buyExchange, sellExchange } = opportunity;
    // The detector opened the route at the tick that took it above the threshold; `now` only if
    // it has not (cannot happen while both judge freshness alike, but an event must carry a time).
    const openedAt = Math.min(this.detector.openedAt(ticker, buyExchange, sellExchange) ?? now, now);
    const { event, sizing } = this.pricer.eventOf(opportunity, now, openedAt);
    if (sizing) this.fanOut.sizedFrom(event, sizing);
    this.fanOut.deliver({ id, at: now, event });
    this.publishedSubject.next({ id, at: now, event });
    // The history keeps what was shown, at the moment it was (rules: recorders).
    if (this.changes?.accepting) {
      this.changes.shown({
        ticker, buyExchange, sellExchange, time: now, buyPrice: event.buyPrice, sellPrice: event.sellPrice,
        grossSpreadPercent: event.profitPercentAskBid, volume24h: event.volume,
      });
    }
  }

  private episodeClosed(e: ClosedEpisode): void {
    if (this.changes?.accepting) {
      this.changes.ended({
        ticker: e.ticker, buyExchange: e.buyExchange, sellExchange: e.sellExchange, time: e.closedAt,
        buyPrice: e.closeBuyPrice, sellPrice: e.closeSellPrice,
      });
    }
    if (this.episodes.accepting) this.episodes.push(this.pricer.episodeOf(e));
    this.pricer.episodeEnded(e);
  }
}
