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
import { ArbitrageDetector, type ClosedEpisode, type Opportunity, profitPercentOf } from './arbitrage-detector.engine.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { EventRing } from './event-ring.js';
import { netSpread, grossSpread } from './net-spread.engine.js';
import { type OpportunityFilter, matchesFilter } from './opportunity-filter.js';
import { OpportunityDebouncer } from './opportunity-debouncer.js';
import { EventPricings, type SizeInputs, sizeOf } from './opportunity-sizing.js';

/** The `streams` rule: the replay ring keeps the last 10,000 events, at most 5 minutes old. */
const RING_LIMITS = { maxEvents: 10_000, maxAgeMs: 5 * 60_000 };
/** How often episodes whose quotes went stale without a tick are ended (at the moment they lapsed). */
export const EPISODE_SWEEP_MS = 1000;

/** One event as the ingest role publishes it: its id is assigned once, here. */
export interface PublishedOpportunity {
  readonly id: number;
  readonly at: number;
  readonly event: OpportunityEventDto;
}

/** The order books an opportunity is sized from (DepthService), and the route events that decide which are held. */
export type OpportunityDepth = Pick<DepthService, 'routeOpened' | 'routeTouched' | 'routeEnded' | 'knownBook'>;

/** The clients that share one filter (or none: key ''), and the one subject they listen on. */
interface FilterGroup {
  readonly filter: OpportunityFilter | null;
  readonly subject: Subject<SseFrame>;
  clients: number;
}

/**
 * Detects cross-exchange spot opportunities from the shared tick stream (rules: opportunities) and publishes each
 * as ONE pre-built SSE frame with an increasing id, kept in a ring for Last-Event-ID replay (rules: streams).
 *
 * An event also carries its net spread, transfer network and state, cost estimate flag
 * and the age of its route's episode, all priced once when the debounced event is built (never
 * per tick). Clients with a filter are grouped by the filter's canonical text: an event is tested
 * once per distinct filter and its one frame handed to the group, never serialised per client.
 */
@Injectable()
export class OpportunityStreamService implements OnModuleInit, OnModuleDestroy {
  private readonly detector: ArbitrageDetector;
  private readonly debouncer: OpportunityDebouncer<Opportunity>;
  private readonly ring = new EventRing<OpportunityEventDto>(RING_LIMITS);
  private readonly groups = new Map<string, FilterGroup>();
  private readonly netReferenceUsdt: number;
  private subscription: Subscription | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private clients = 0;
  private readonly detects: boolean;
  private readonly publishedSubject = new Subject<PublishedOpportunity>();
  /** Every event this process detects, as published (the Redis relay forwards them). */
  readonly published: Observable<PublishedOpportunity> = this.publishedSubject.asObservable();
  // Ids start at the current time in ms so they keep increasing across restarts.
  private lastId: number;
  private lastDelivered = 0;
  /** What each published event's `size` was priced from, for clients pricing at another size (kept as long as the event). */
  private readonly sizeInputs = new WeakMap<OpportunityEventDto, SizeInputs>();
  /** Per open route, its most profitable sized event so far: the episode's maxSizeUsdt at its peak. */
  private readonly peakSizes = new Map<string, { profit: number; maxSizeUsdt: number }>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(QUOTE_TICK_BUS) private readonly bus: QuoteTickBus,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
    private readonly costs: MarketCostsBook,
    private readonly episodes: RouteEpisodeQueue,
    @Inject(NameCollisions) private readonly collisions: CollisionGuard,
    @Optional() @Inject(DepthService) private readonly depth: OpportunityDepth | null = null,
  ) {
    this.netReferenceUsdt = config.realtime.netReferenceUsdt;
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
    this.subscription = this.bus.ticks.pipe(filter((tick) => tick.market === 'SPOT')).subscribe((tick) => {
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
    for (const group of this.groups.values()) group.subject.complete();
    this.groups.clear();
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

  /**
   * Hands an event to the replay ring and the clients. Ids must increase; one not above the last
   * delivered is dropped, so an event relayed twice (a re-read after reconnecting) reaches nobody twice.
   */
  deliver({ id, at, event }: PublishedOpportunity): void {
    if (id <= this.lastDelivered) return;
    this.lastDelivered = id;
    const pricings = this.pricings(id, event, null);
    this.ring.push(id, at, pricings.for(null).frame(), event);
    for (const group of this.groups.values()) {
      const priced = pricings.for(group.filter);
      if (group.filter === null || matchesFilter(group.filter, priced.event)) group.subject.next(priced.frame());
    }
  }

  /** The id of the newest event delivered here (0 before any). */
  get lastDeliveredId(): number {
    return this.lastDelivered;
  }

  /**
   * Frames after `lastEventId` still in the ring that pass the client's filter, then live ones.
   * Both happen synchronously in subscribe, so no event can slip between replay and live: nothing
   * lost, nothing twice.
   */
  frames(lastEventId: number | null, clientFilter: OpportunityFilter | null = null): Observable<SseFrame> {
    return new Observable<SseFrame>((subscriber) => {
      if (lastEventId !== null) {
        for (const entry of this.ring.entriesAfter(lastEventId, this.clock.now())) {
          const priced = this.pricings(entry.id, entry.meta, entry.frame).for(clientFilter);
          if (!clientFilter || matchesFilter(clientFilter, priced.event)) subscriber.next(priced.frame());
        }
      }
      const group = this.join(clientFilter);
      this.clients += 1;
      const subscription = group.subject.subscribe(subscriber);
      return () => {
        this.clients -= 1;
        subscription.unsubscribe();
        this.leave(clientFilter?.key ?? '', group);
      };
    });
  }

  get clientCount(): number {
    return this.clients;
  }

  /** Distinct filters with at least one client (the unfiltered stream counts as one). */
  get filterGroupCount(): number {
    return this.groups.size;
  }

  private join(clientFilter: OpportunityFilter | null): FilterGroup {
    const key = clientFilter?.key ?? '';
    let group = this.groups.get(key);
    if (!group) {
      group = { filter: clientFilter, subject: new Subject<SseFrame>(), clients: 0 };
      this.groups.set(key, group);
    }
    group.clients += 1;
    return group;
  }

  private leave(key: string, group: FilterGroup): void {
    group.clients -= 1;
    if (group.clients === 0 && this.groups.get(key) === group) this.groups.delete(key);
  }

  /**
   * A published event as each filter prices it (its `size` at the filter's notional and net
   * threshold), re-priced once per distinct pricing: for consumers other than the SSE clients,
   * such as alert rules with a size condition. Without the event's books, every filter sees it as published.
   */
  pricingsOf({ id, event }: PublishedOpportunity): EventPricings {
    return this.pricings(id, event, null);
  }

  private pricings(id: number, event: OpportunityEventDto, frame: SseFrame | null): EventPricings {
    return new EventPricings(id, event, frame, this.sizeInputs.get(event), this.netReferenceUsdt);
  }

  /** The two books and costs `size` is priced from; undefined while either book is unknown. */
  private sizeInputsOf(o: Opportunity, buyFeePercent: number | undefined, sellFeePercent: number | undefined, withdrawalFee: number | null, now: number): SizeInputs | undefined {
    const buy = this.depth?.knownBook(o.buyExchange, 'SPOT', o.ticker, now);
    const sell = buy && this.depth?.knownBook(o.sellExchange, 'SPOT', o.ticker, now);
    if (!buy || !sell) return undefined;
    const depthAgeMs = Math.max(0, now - Math.min(buy.receivedAt, sell.receivedAt));
    return { asks: buy.asks, bids: sell.bids, buyFeePercent, sellFeePercent, withdrawalFee, depthAgeMs };
  }

  private publish(opportunity: Opportunity): void {
    const now = this.clock.now();
    const id = (this.lastId = Math.max(this.lastId + 1, now));
    const { ticker, buyExchange, sellExchange, buyPrice, sellPrice } = opportunity;
    const route = { ticker, buyExchange, sellExchange };
    const transfer = this.costs.transferOf(route);
    const buyFeePercent = this.costs.takerFeeOf(buyExchange, ticker);
    const sellFeePercent = this.costs.takerFeeOf(sellExchange, ticker);
    const net = netSpread({ buyPrice, sellPrice, buyFeePercent, sellFeePercent, withdrawalFee: transfer.withdrawalFee, referenceUsdt: this.netReferenceUsdt });
    const sizing = this.sizeInputsOf(opportunity, buyFeePercent, sellFeePercent, transfer.withdrawalFee, now);
    this.depth?.routeTouched(route, opportunity.profitPercentAskBid);
    // The detector opened the route at the tick that took it above the threshold; `now` only if
    // it has not (cannot happen while both judge freshness alike, but an event must carry a time).
    const openedAt = Math.min(this.detector.openedAt(ticker, buyExchange, sellExchange) ?? now, now);
    // Field by field, not `{ ...opportunity, … }`: see bookQuote in quote-book.ts (one hidden
    // class for every event instead of one per event).
    const event: OpportunityEventDto = {
      ticker,
      buyExchange,
      sellExchange,
      buyPrice,
      sellPrice,
      profitPercentAskBid: profitPercentOf(buyPrice, sellPrice),
      volume: this.pairVolume(opportunity),
      timestamp: new Date(now).toISOString(),
      netProfitPercent: net.netPercent,
      network: transfer.network,
      transferable: transfer.transferable,
      costsEstimated: net.estimated,
      openedAt: new Date(openedAt).toISOString(),
      ageMs: now - openedAt,
      size: sizing ? sizeOf(sizing, this.netReferenceUsdt, 0) : null,
    };
    if (sizing) this.sizeInputs.set(event, sizing);
    if (event.size) this.notePeakSize(route, event.profitPercentAskBid, event.size.maxSizeUsdt);
    this.deliver({ id, at: now, event });
    this.publishedSubject.next({ id, at: now, event });
  }

  private notePeakSize(route: { ticker: string; buyExchange: string; sellExchange: string }, profit: number, maxSizeUsdt: number): void {
    const key = `${route.ticker}|${route.buyExchange}|${route.sellExchange}`;
    const peak = this.peakSizes.get(key);
    if (!peak || profit >= peak.profit) this.peakSizes.set(key, { profit, maxSizeUsdt });
  }

  /** Prices a closed episode for the recorder: the net spread at the gross peak, with the costs known now. */
  private episodeClosed(e: ClosedEpisode): void {
    const key = `${e.ticker}|${e.buyExchange}|${e.sellExchange}`;
    const peakSize = this.peakSizes.get(key);
    this.peakSizes.delete(key);
    if (!this.episodes.accepting) return;
    const route = { ticker: e.ticker, buyExchange: e.buyExchange, sellExchange: e.sellExchange };
    const transfer = this.costs.transferOf(route);
    const net = netSpread({
      buyPrice: e.peakBuyPrice,
      sellPrice: e.peakSellPrice,
      buyFeePercent: this.costs.takerFeeOf(e.buyExchange, e.ticker),
      sellFeePercent: this.costs.takerFeeOf(e.sellExchange, e.ticker),
      withdrawalFee: transfer.withdrawalFee,
      referenceUsdt: this.netReferenceUsdt,
    });
    this.episodes.push({
      ticker: e.ticker,
      buyExchange: e.buyExchange,
      sellExchange: e.sellExchange,
      openedAt: new Date(e.openedAt),
      closedAt: new Date(e.closedAt),
      peakGrossPercent: grossSpread(e.peakBuyPrice, e.peakSellPrice),
      peakNetPercent: net.netPercent,
      peakMaxSizeUsdt: peakSize?.maxSizeUsdt ?? null,
      transferable: transfer.transferable,
      costsEstimated: net.estimated,
    });
  }

  /** The `opportunities` rule: the smaller of the two exchanges' 24 h quote volumes; null while either is unknown. */
  private pairVolume(o: Opportunity): number | null {
    const buy = this.book.volume(o.buyExchange, 'SPOT', o.ticker);
    const sell = this.book.volume(o.sellExchange, 'SPOT', o.ticker);
    return buy === null || sell === null ? null : Math.min(buy, sell);
  }
}
