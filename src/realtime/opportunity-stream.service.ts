import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Observable, Subject, type Subscription, filter } from 'rxjs';
import { type SseFrame, dataFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MARKET_CLOCK, QUOTE_STALE_MS, QUOTE_TICK_BUS } from '../market-data/market-data.constants.js';
import { QuoteBook } from '../market-data/quote-book.js';
import type { QuoteTickBus } from '../market-data/quote-tick-bus.js';
import { ArbitrageDetector, type Opportunity } from './arbitrage-detector.engine.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { EventRing } from './event-ring.js';
import { OpportunityDebouncer } from './opportunity-debouncer.js';

/** D4: the replay ring keeps the last 10,000 events, at most 5 minutes old. */
const RING_LIMITS = { maxEvents: 10_000, maxAgeMs: 5 * 60_000 };

/**
 * Detects cross-exchange spot opportunities from the shared tick stream (D6) and publishes each
 * as ONE pre-built SSE frame with an increasing id, kept in a ring for Last-Event-ID replay (D4).
 */
@Injectable()
export class OpportunityStreamService implements OnModuleInit, OnModuleDestroy {
  private readonly detector: ArbitrageDetector;
  private readonly debouncer: OpportunityDebouncer<Opportunity>;
  private readonly ring = new EventRing(RING_LIMITS);
  private readonly live = new Subject<SseFrame>();
  private subscription: Subscription | null = null;
  private clients = 0;
  // Ids start at the current time in ms so they keep increasing across restarts.
  private lastId: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(QUOTE_TICK_BUS) private readonly bus: QuoteTickBus,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
  ) {
    this.detector = new ArbitrageDetector({ minProfitPercent: config.realtime.minProfitPercent, staleMs: QUOTE_STALE_MS });
    this.debouncer = new OpportunityDebouncer(
      config.realtime.debounceMs,
      (ticker) => this.detector.best(ticker, this.clock.now()),
      (opportunity) => this.publish(opportunity),
    );
    this.lastId = clock.now();
  }

  onModuleInit(): void {
    this.subscription = this.bus.ticks.pipe(filter((tick) => tick.market === 'SPOT')).subscribe((tick) => {
      this.detector.apply(tick);
      if (!this.debouncer.isPending(tick.ticker) && this.detector.best(tick.ticker, this.clock.now())) {
        this.debouncer.detected(tick.ticker);
      }
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    this.debouncer.clear();
    this.live.complete();
  }

  /**
   * Frames after `lastEventId` still in the ring, then live ones. Both happen synchronously in
   * subscribe, so no event can slip between replay and live: nothing lost, nothing twice.
   */
  frames(lastEventId: number | null): Observable<SseFrame> {
    return new Observable<SseFrame>((subscriber) => {
      if (lastEventId !== null) {
        for (const frame of this.ring.after(lastEventId, this.clock.now())) subscriber.next(frame);
      }
      this.clients += 1;
      const subscription = this.live.subscribe(subscriber);
      return () => {
        this.clients -= 1;
        subscription.unsubscribe();
      };
    });
  }

  get clientCount(): number {
    return this.clients;
  }

  private publish(opportunity: Opportunity): void {
    const now = this.clock.now();
    const id = (this.lastId = Math.max(this.lastId + 1, now));
    const event: OpportunityEventDto = {
      ...opportunity,
      volume: this.pairVolume(opportunity),
      timestamp: new Date(now).toISOString(),
    };
    const frame = dataFrame(event, { id });
    this.ring.push(id, now, frame);
    this.live.next(frame);
  }

  /** D6: the smaller of the two exchanges' 24 h quote volumes; null while either is unknown. */
  private pairVolume(o: Opportunity): number | null {
    const buy = this.book.volume(o.buyExchange, 'SPOT', o.ticker);
    const sell = this.book.volume(o.sellExchange, 'SPOT', o.ticker);
    return buy === null || sell === null ? null : Math.min(buy, sell);
  }
}
