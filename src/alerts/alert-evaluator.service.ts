import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Subscription } from 'rxjs';
import type { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type FundingCollection, FundingRatesService } from '../funding-rates/funding-rates.service.js';
import { buildEntry } from '../funding-rates/funding.engine.js';
import { type FundingIntervalChange, FundingSettlementsService } from '../funding-rates/funding-settlements.service.js';
import type { Clock } from '../market-data/clock.js';
import { MarketDataService } from '../market-data/market-data.service.js';
import type { OpportunityEventDto } from '../realtime/dto/opportunity-event.dto.js';
import type { OpportunityFilter } from '../realtime/opportunity-filter.js';
import { OpportunityStreamService } from '../realtime/opportunity-stream.service.js';
import { IngestLease } from '../redis/ingest-lease.js';
import { decideFeed, FeedOutages } from './alert-feed.engine.js';
import { decideFiring, type FiringMemory, type FiringObservation, notifies } from './alert-firing.engine.js';
import { type AlertMessage, feedMessage, fundingIntervalMessage, fundingMessage, opportunityMessage } from './alert-message.js';
import { AlertOutboxRepository, type Firing, memoryKey } from './alert-outbox.repository.js';
import { AlertRuleIndex, feedAdmits, type IndexedRule } from './alert-rule-index.js';
import { AlertRuleEntity } from './alert-rule.entity.js';
import { AlertSenderService } from './alert-sender.service.js';
import { ALERTS_CLOCK } from './alerts.constants.js';
import { AlertsMetrics } from './alerts.metrics.js';
import { AlertsService } from './alerts.service.js';

/** Rules changed on another instance reach the evaluator within this long. */
export const RULE_RELOAD_MS = 2000;
/** How often feed health is looked at for feed rules. */
export const FEED_CHECK_MS = 5000;
/** An interval change older than this when first seen (one a backfill found in the past) does not notify. */
export const INTERVAL_CHANGE_NEWS_MS = 24 * 3_600_000;

/**
 * Evaluates enabled rules against what the service sees: each published opportunity, each funding
 * collection, and feed health. It runs in exactly one process, the one holding the ingest lease
 * (never on an API instance), so a firing is recorded once however many instances serve the API.
 * Cool-down memory is read back from the database at start, so a restart does not notify again.
 */
@Injectable()
export class AlertEvaluatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AlertEvaluator');
  private index: AlertRuleIndex;
  private memories = new Map<string, FiringMemory>();
  /** When each (funding rule, ticker+exchange) last rose to its threshold: the funding "episode". */
  private readonly fundingSince = new Map<string, number>();
  private readonly outages = new FeedOutages();
  private readonly subscriptions: Subscription[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private writes: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(AlertRuleEntity) private readonly rules: Repository<AlertRuleEntity>,
    private readonly outbox: AlertOutboxRepository,
    private readonly sender: AlertSenderService,
    private readonly metrics: AlertsMetrics,
    private readonly alerts: AlertsService,
    private readonly opportunities: OpportunityStreamService,
    private readonly funding: FundingRatesService,
    private readonly market: MarketDataService,
    private readonly lease: IngestLease,
    @Inject(ALERTS_CLOCK) private readonly clock: Clock,
    private readonly settlements: FundingSettlementsService,
  ) {
    this.index = new AlertRuleIndex([], config.marketData.exchanges);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.lease.run(() => this.start());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const s of this.subscriptions.splice(0)) s.unsubscribe();
    for (const t of this.timers.splice(0)) clearInterval(t);
    await this.writes;
  }

  /** Rule groups in force (for tests and the bench). */
  get ruleIndex(): AlertRuleIndex {
    return this.index;
  }

  /** Resolves when every firing recorded so far is in the database. */
  settled(): Promise<void> {
    return this.writes;
  }

  private async start(): Promise<void> {
    if (this.stopped) return;
    this.memories = await this.outbox.loadMemories();
    await this.reload();
    this.subscriptions.push(
      this.opportunities.published.subscribe((published) => {
        const pricings = this.opportunities.pricingsOf(published);
        this.onOpportunity(published.event, (filter) => pricings.for(filter).event);
      }),
      this.funding.collected.subscribe((collection) => this.onFunding(collection)),
      this.settlements.intervalChanges.subscribe((change) => this.onIntervalChange(change)),
      this.alerts.changed.subscribe(() => void this.reload()),
    );
    this.every(RULE_RELOAD_MS, () => void this.reload());
    if (this.config.marketData.websocketEnabled) this.every(FEED_CHECK_MS, () => this.checkFeeds());
    this.sender.start();
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  async reload(): Promise<void> {
    try {
      const all = await this.rules.find();
      this.forgetDeleted(new Set(all.map((r) => r.id)));
      const rows = all.filter((r) => r.enabled);
      const rules: IndexedRule[] = rows.map((r) => ({
        id: r.id, email: r.email, name: r.name, kind: r.kind, condition: r.condition, channel: r.channel, cooldownSeconds: r.cooldownSeconds,
      }));
      this.index = new AlertRuleIndex(rules, this.config.marketData.exchanges);
    } catch (err) {
      this.logger.warn({ msg: 'alert rules could not be reloaded; the previous ones stay in force', error: err instanceof Error ? err.name : 'unknown' });
    }
  }

  /** Cool-down memories kept in this process (a disabled rule keeps its own). */
  get memoryCount(): number {
    return this.memories.size;
  }

  /** Drops what deleted rules left behind (the database drops their rows with them). */
  private forgetDeleted(existing: ReadonlySet<string>): void {
    for (const map of [this.memories, this.fundingSince]) {
      for (const key of map.keys()) if (!existing.has(key.slice(0, key.indexOf('|')))) map.delete(key);
    }
  }

  /** `price` answers the event at a rule's `size` (the stream's own pricing); without it, as published. */
  onOpportunity(event: OpportunityEventDto, price?: (filter: OpportunityFilter) => OpportunityEventDto): void {
    const now = this.clock.now();
    const route = `${event.ticker} ${event.buyExchange}->${event.sellExchange}`;
    const seen = { now, value: event.netProfitPercent, episode: event.openedAt };
    const firings: Firing[] = [];
    for (const { rule, event: priced } of this.index.opportunityRules(event, price)) {
      const firing = this.consider(rule, route, seen, () => opportunityMessage(rule.name, priced, now));
      if (firing) firings.push(firing);
    }
    this.persist(firings, now);
  }

  onFunding({ observations, at }: FundingCollection): void {
    const now = this.clock.now();
    const firings: Firing[] = [];
    for (const o of observations) {
      const entry = buildEntry(o, at);
      if (entry.aprPercent === null) continue;
      const abs = Math.abs(entry.aprPercent);
      const route = `${o.symbol} ${o.exchange}`;
      for (const group of this.index.fundingGroups(o.symbol, o.exchange)) {
        const { minAbsApr } = group.condition;
        for (const rule of group.rules) {
          const key = memoryKey(rule.id, route);
          if (abs < minAbsApr) {
            this.fundingSince.delete(key);
            continue;
          }
          const since = this.fundingSince.get(key) ?? at;
          this.fundingSince.set(key, since);
          const fact = { exchange: o.exchange, ticker: o.symbol, aprPercent: entry.aprPercent, fundingRate: entry.fundingRate, nextFundingTime: entry.nextFundingTime };
          const firing = this.consider(rule, route, { now, value: abs, episode: String(since) }, () => fundingMessage(rule.name, fact, minAbsApr, now));
          if (firing) firings.push(firing);
        }
      }
    }
    this.persist(firings, now);
  }

  /** Rules watching interval changes notify once per change of a (ticker, exchange); a change from the distant past does not. */
  onIntervalChange(change: FundingIntervalChange): void {
    const now = this.clock.now();
    if (now - change.at > INTERVAL_CHANGE_NEWS_MS) return;
    const route = `${change.ticker} ${change.exchange} interval`;
    const seen = { now, value: change.toHours, episode: String(change.at) };
    const firings: Firing[] = [];
    for (const group of this.index.intervalChangeGroups(change.ticker, change.exchange)) {
      for (const rule of group.rules) {
        const firing = this.consider(rule, route, seen, () => fundingIntervalMessage(rule.name, change, now));
        if (firing) firings.push(firing);
      }
    }
    this.persist(firings, now);
  }

  checkFeeds(): void {
    const now = this.clock.now();
    const report = this.market.healthReport();
    for (const [exchange, health] of Object.entries(report)) this.outages.observe(exchange, health.connected, now);
    const firings: Firing[] = [];
    for (const group of this.index.feedGroups()) {
      for (const exchange of Object.keys(report).filter((e) => feedAdmits(group.condition, e))) {
        const downSince = this.outages.downSince(exchange);
        for (const rule of group.rules) {
          const route = `feed ${exchange}`;
          const memory = this.memories.get(memoryKey(rule.id, route)) ?? null;
          const decision = decideFeed(memory, downSince, now, group.condition.minutes * 60_000);
          if (decision === null) continue;
          const since = decision.notify === 'down' ? (downSince ?? now) : decision.downSince;
          const message = feedMessage(rule.name, exchange, decision.notify === 'down', since, now);
          firings.push(this.fire(rule, route, { notifiedAt: now, value: 1, episode: decision.episode }, message));
        }
      }
    }
    this.persist(firings, now);
  }

  private consider(rule: IndexedRule, route: string, seen: FiringObservation, message: () => AlertMessage): Firing | null {
    const memory = this.memories.get(memoryKey(rule.id, route)) ?? null;
    if (!notifies(decideFiring(memory, seen, rule.cooldownSeconds * 1000))) return null;
    return this.fire(rule, route, { notifiedAt: seen.now, value: seen.value, episode: seen.episode }, message());
  }

  /** Takes the new memory at once (so the next event sees it), the database write follows in order. */
  private fire(rule: IndexedRule, route: string, memory: FiringMemory, message: AlertMessage): Firing {
    this.memories.set(memoryKey(rule.id, route), memory);
    return { ruleId: rule.id, email: rule.email, ruleName: rule.name, channelType: rule.channel.type, route, memory, message };
  }

  private persist(firings: Firing[], now: number): void {
    if (firings.length === 0) return;
    this.writes = this.writes.then(async () => {
      const recorded = await this.record(firings, now);
      for (const f of recorded) this.metrics.fired.inc({ kind: f.message.kind });
      if (recorded.length > 0) this.sender.wake();
    });
  }

  /**
   * All firings of one event in one transaction; if it fails (a rule deleted meanwhile), each on
   * its own, and a firing that still fails gives its memory up so the route can fire again.
   */
  private async record(firings: Firing[], now: number): Promise<Firing[]> {
    try {
      await this.outbox.record(firings, now);
      return firings;
    } catch {
      const recorded: Firing[] = [];
      for (const f of firings) {
        try {
          await this.outbox.record([f], now);
          recorded.push(f);
        } catch (err) {
          this.memories.delete(memoryKey(f.ruleId, f.route));
          this.logger.warn({ msg: 'alert firing not recorded', ruleId: f.ruleId, error: err instanceof Error ? err.name : 'unknown' });
        }
      }
      return recorded;
    }
  }
}
