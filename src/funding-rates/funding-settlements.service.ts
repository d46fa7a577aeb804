import { Subject } from 'rxjs';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { errorFields } from '../common/logging/json-logger.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { parseExchangeName, type ExchangeName } from '../market-model/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data/market-data.constants.js';
import type { MarketDataSource } from '../market-data/market-data-source.js';
import type { FundingObservation } from './funding.engine.js';
import { intervalsFromTimes, type Settlement } from './funding-history.engine.js';
import { FundingSettlementRepository, type StoredSettlement } from './funding-settlement.repository.js';
import { CACHE_DAYS, SettledFundingCache } from './settled-funding.cache.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** A payment shows in the venue's history a little after its time. */
export const AFTER_SETTLEMENT_MS = 60_000;
/** A failed history read is tried again this much later. */
const RETRY_MS = 5 * 60_000;
const RETENTION_EVERY_MS = HOUR_MS;

interface Perpetual {
  exchange: ExchangeName;
  ticker: string;
  /** When the venue's history is next read. */
  dueAt: number;
  /** The newest payment read from the venue. */
  lastVenueAt: number | null;
  intervalHours: number | null;
  /** The previous collection's view, to record a payment the collector saw happen. */
  last: FundingObservation | null;
}

/** A venue moved a perpetual to another funding interval: detected from its collection or its history. */
export interface FundingIntervalChange {
  readonly exchange: ExchangeName;
  readonly ticker: string;
  /** Unix ms: when it was seen (a collection), or the first payment on the new interval (the history). */
  readonly at: number;
  readonly fromHours: number;
  readonly toHours: number;
}

const keyOf = (exchange: string, ticker: string): string => `${exchange}|${ticker}`;
const hoursOf = (seconds: number | null): number | null => (seconds === null || seconds <= 0 ? null : seconds / 3600);

/**
 * Settled funding: backfills 30 days of every perpetual the collector lists from the venue's
 * funding-history call, then reads it again after each payment time; records the payments the
 * collector itself sees happen (the venue's figures replace them when read); detects interval
 * changes; keeps the in-memory cache the ranking and the spreads read; applies the retention.
 */
@Injectable()
export class FundingSettlementsService {
  private readonly logger = new Logger('FundingSettlements');
  readonly cache = new SettledFundingCache();
  private readonly perpetuals = new Map<string, Perpetual>();
  private readonly changedSubject = new Subject<void>();
  /** Emits after the cache's figures were refreshed (the ranking is rebuilt from them). */
  readonly changed = this.changedSubject.asObservable();
  private readonly intervalChangesSubject = new Subject<FundingIntervalChange>();
  /** Each interval change as it is recorded (alert rules listen here); changes found in a backfill come with their own past time. */
  readonly intervalChanges = this.intervalChangesSubject.asObservable();
  private loaded: Promise<void> | undefined;
  private backfilling: Promise<void> | undefined;
  private retainedAt = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MARKET_DATA_SOURCE) private readonly source: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly repo: FundingSettlementRepository,
  ) {}

  /** Loads the stored 30 days and interval changes into the cache, once. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const now = this.clock.now();
      const rows = await this.repo.after(now - CACHE_DAYS * DAY_MS);
      const grouped = new Map<string, StoredSettlement[]>();
      for (const r of rows) grouped.set(keyOf(r.exchange, r.ticker), [...(grouped.get(keyOf(r.exchange, r.ticker)) ?? []), r]);
      for (const group of grouped.values()) {
        const first = group[0];
        if (first) this.cache.add(first.exchange, first.ticker, group);
      }
      for (const c of await this.repo.latestIntervalChanges()) this.cache.setIntervalChange(c.exchange, c.ticker, c.changedAt);
      await this.cache.refresh(now);
      this.changedSubject.next();
    })();
    return this.loaded;
  }

  /** One collection's observations: interval changes, payments seen happen, what to backfill. */
  async observe(observations: readonly FundingObservation[], now: number): Promise<void> {
    await this.load();
    const observed: StoredSettlement[] = [];
    let changed = false;
    for (const o of observations) {
      const exchange = parseExchangeName(o.exchange);
      if (!exchange) continue;
      const p = this.perpetual(exchange, o.symbol, now);
      const hours = hoursOf(o.intervalSeconds);
      const seen = p.intervalHours ?? this.cache.last(exchange, o.symbol)?.intervalHours ?? null;
      if (hours !== null && seen !== null && hours !== seen) {
        await this.intervalChanged(exchange, o.symbol, now, seen, hours);
        changed = true;
      }
      if (hours !== null) p.intervalHours = hours;
      const paid = this.paymentSeen(p, now);
      if (paid) observed.push(paid);
      p.last = o;
    }
    if (observed.length > 0) {
      await this.repo.save(observed, 'observed');
      for (const s of observed) this.cache.add(s.exchange, s.ticker, [s]);
    }
    if (changed || observed.length > 0) await this.refresh(now);
  }

  /** One coin's stored payments after `from`, oldest first. */
  history(ticker: string, exchange: string | null, from: number): Promise<StoredSettlement[]> {
    return this.repo.history(ticker, exchange, from);
  }

  /** Starts a backfill pass of every due perpetual unless one runs; resolves when it ends. */
  backfill(): Promise<void> {
    this.backfilling ??= this.backfillDue().finally(() => {
      this.backfilling = undefined;
    });
    return this.backfilling;
  }

  /** Refreshes the figures and applies the retention (hourly); emits `changed`. */
  async refresh(now: number): Promise<void> {
    await this.cache.refresh(now);
    if (now - this.retainedAt >= RETENTION_EVERY_MS) {
      this.retainedAt = now;
      const deleted = await this.repo.deleteBefore(now - this.config.funding.retentionDays * DAY_MS);
      if (deleted > 0) this.logger.log({ msg: 'funding settlements past retention deleted', deleted });
    }
    this.changedSubject.next();
  }

  private perpetual(exchange: ExchangeName, ticker: string, now: number): Perpetual {
    const key = keyOf(exchange, ticker);
    let p = this.perpetuals.get(key);
    if (!p) this.perpetuals.set(key, (p = { exchange, ticker, dueAt: now, lastVenueAt: null, intervalHours: null, last: null }));
    return p;
  }

  /** The previous collection announced a payment that has now passed: the collector saw it happen. */
  private paymentSeen(p: Perpetual, now: number): StoredSettlement | null {
    const prev = p.last;
    if (!prev || prev.nextFundingTime === null || prev.nextFundingTime > now || prev.fundingRate === null) return null;
    const hours = hoursOf(prev.intervalSeconds);
    if (hours === null || this.cache.has(p.exchange, p.ticker, prev.nextFundingTime)) return null;
    return { exchange: p.exchange, ticker: p.ticker, settledAt: prev.nextFundingTime, rate: prev.fundingRate, intervalHours: hours, markPrice: prev.markPrice };
  }

  private async intervalChanged(exchange: ExchangeName, ticker: string, at: number, fromHours: number, toHours: number): Promise<void> {
    this.cache.setIntervalChange(exchange, ticker, at);
    await this.repo.recordIntervalChange({ exchange, ticker, changedAt: at, fromHours, toHours });
    this.logger.log({ msg: 'funding interval changed', exchange, ticker, fromHours, toHours });
    this.intervalChangesSubject.next({ exchange, ticker, at, fromHours, toHours });
  }

  private async backfillDue(): Promise<void> {
    await this.load();
    const byExchange = new Map<ExchangeName, Perpetual[]>();
    const now = this.clock.now();
    for (const p of this.perpetuals.values()) {
      if (p.dueAt <= now) byExchange.set(p.exchange, [...(byExchange.get(p.exchange) ?? []), p]);
    }
    // Exchanges in parallel, each one's perpetuals in turn: the source paces each venue's calls.
    await Promise.all([...byExchange.values()].map(async (list) => {
      for (const p of list) await this.backfillOne(p);
    }));
    await this.refresh(this.clock.now());
  }

  private async backfillOne(p: Perpetual): Promise<void> {
    if (!this.source.fetchFundingHistory) return;
    const now = this.clock.now();
    const since = Math.max(now - CACHE_DAYS * DAY_MS, (p.lastVenueAt ?? 0) + 1);
    try {
      const reads = await this.source.fetchFundingHistory(p.exchange, p.ticker, since);
      const before = this.cache.lastBefore(p.exchange, p.ticker, since);
      const settled = await this.withIntervals(p, reads, before);
      await this.repo.save(settled, 'venue');
      this.cache.add(p.exchange, p.ticker, settled);
      p.lastVenueAt = settled.at(-1)?.settledAt ?? p.lastVenueAt;
      const next = p.last?.nextFundingTime ?? null;
      p.dueAt = next !== null && next > now ? next + AFTER_SETTLEMENT_MS : now + (p.intervalHours ?? 8) * HOUR_MS;
    } catch (err) {
      p.dueAt = now + RETRY_MS;
      this.logger.warn({ msg: 'funding history read failed; retried later', exchange: p.exchange, ticker: p.ticker, error: errorFields(err) });
    }
  }

  /** The interval of each payment from the times, continuing from the last stored one; records changes among them. */
  private async withIntervals(p: Perpetual, reads: readonly { settledAt: number; rate: number; markPrice: number | null }[], before: Settlement | undefined): Promise<StoredSettlement[]> {
    const times = [...(before ? [before.settledAt] : []), ...reads.map((r) => r.settledAt)];
    const intervals = intervalsFromTimes(times, before?.intervalHours ?? p.intervalHours ?? 8).slice(before ? 1 : 0);
    const out = reads.map((r, i) => ({ exchange: p.exchange, ticker: p.ticker, settledAt: r.settledAt, rate: r.rate, intervalHours: intervals[i] ?? 8, markPrice: r.markPrice }));
    let previous = before?.intervalHours;
    for (const s of out) {
      if (previous !== undefined && s.intervalHours !== previous) await this.intervalChanged(p.exchange, p.ticker, s.settledAt, previous, s.intervalHours);
      previous = s.intervalHours;
    }
    return out;
  }
}
