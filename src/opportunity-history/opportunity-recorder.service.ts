import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MARKET_CLOCK } from '../market-data/market-data.constants.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { type CollisionGuard, NameCollisions } from '../market-data/name-collisions.js';
import { ROUTE_COSTS_PROVIDER } from './opportunity-history.constants.js';
import { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import type { RouteCostsProvider } from '../market-data/route-costs.js';
import { collectRouteSamples } from './route-samples.js';
import { type RouteChange, RouteChangeQueue } from './route-changes.js';
import type { OpportunitySample } from './opportunity-sample.js';

const DAY_MS = 86_400_000;

/** What the recorder needs of the store: the batched upsert the import uses, and retention. */
export type HistoryStore = Pick<OpportunityHistoryRepository, 'upsert' | 'deleteBefore'>;

/**
 * The opportunity-history recorder of the `recorders` rule: the spreads the live stream showed
 * (RouteChangeQueue), a round of every route as a heartbeat, and retention.
 */
@Injectable()
export class OpportunityRecorderService {
  private readonly minSpreadPercent: number;
  private readonly retentionMs: number;

  constructor(
    private readonly book: QuoteBook,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    @Inject(OpportunityHistoryRepository) private readonly store: HistoryStore,
    @Inject(ROUTE_COSTS_PROVIDER) private readonly costs: RouteCostsProvider,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(NameCollisions) private readonly collisions: CollisionGuard,
    private readonly changes: RouteChangeQueue,
  ) {
    this.minSpreadPercent = config.history.minSpreadPercent;
    this.retentionMs = config.history.retentionDays * DAY_MS;
  }

  /** Samples every route among the fresh spot quotes and stores them; returns how many. */
  async recordOnce(): Promise<number> {
    const now = this.clock.now();
    // A ticker naming another coin on an exchange is no route there.
    const fresh = [...this.book.snapshot({ market: 'SPOT' })].filter((q) => !q.stale && !this.collisions.isExcluded(q.exchange, q.ticker));
    const samples = collectRouteSamples(fresh, new Date(now), this.minSpreadPercent, this.costs);
    if (samples.length > 0) await this.store.upsert(samples);
    return samples.length;
  }

  /**
   * Stores the spreads the stream showed since the last call, at their own times, with the route's
   * costs as known now; on failure they wait for the next call. Returns how many were stored.
   */
  async recordChanges(): Promise<{ stored: number; dropped: number }> {
    const { changes, dropped } = this.changes.drain();
    if (changes.length === 0) return { stored: 0, dropped };
    try {
      await this.store.upsert(changes.map((c) => this.sampleOf(c)));
    } catch (error) {
      this.changes.requeue(changes);
      throw error;
    }
    return { stored: changes.length, dropped };
  }

  private sampleOf(c: RouteChange): OpportunitySample {
    const route = { ticker: c.ticker, buyExchange: c.buyExchange, sellExchange: c.sellExchange };
    return {
      ...route,
      ...this.costs.costsOf(route, c.buyPrice),
      time: new Date(c.time),
      buyPrice: c.buyPrice,
      sellPrice: c.sellPrice,
      grossSpreadPercent: c.grossSpreadPercent,
      volume24h: c.volume24h,
    };
  }

  /** Deletes rows older than HISTORY_RETENTION_DAYS; returns how many. */
  purgeExpired(): Promise<number> {
    return this.store.deleteBefore(this.retentionCutoff());
  }

  /** The oldest time HISTORY_RETENTION_DAYS keeps (route episodes share it). */
  retentionCutoff(): Date {
    return new Date(this.clock.now() - this.retentionMs);
  }
}
