import { type Observable, Subject } from 'rxjs';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { dec, roundPrice } from '../common/money/money.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data/market-data.constants.js';
import type { FundingSnapshot, MarketDataSource } from '../market-data/market-data-source.js';
import { FundingRateBook } from '../market-data/funding-rate-book.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { errorFields } from '../common/logging/json-logger.js';
import { deriveIntervalSeconds, type FundingObservation, type ScheduleObservation } from './funding.engine.js';
import { FundingRanking, type FundingPage } from './funding-ranking.js';
import { parseFundingQuery, type RawFundingQuery } from './funding-query.js';
import { parseHistoryQuery, parseSpreadsQuery } from './funding-extra-query.js';
import { FundingSettlementsService } from './funding-settlements.service.js';
import { FundingSpreads, type SpreadsPage } from './funding-spreads.js';
import type { StoredSettlement } from './funding-settlement.repository.js';

/** What the collector remembers of a contract's schedule, to derive an unstated interval. */
interface ScheduleMemory extends ScheduleObservation {
  derivedSeconds: number | null;
}

export interface CollectionResult {
  succeeded: ExchangeName[];
  failed: ExchangeName[];
  contracts: number;
}

/**
 * The funding collector and the ranking it serves (rules: funding). A collection reads
 * every configured exchange through the MarketDataSource, keeps the last good read of an
 * exchange that fails (its entries turn stale after 15 minutes), and builds and sorts the
 * ranking once. Requests read only that in-memory ranking: they never reach an exchange.
 */
/** The observations of one collection and when it was made. */
export interface FundingCollection {
  readonly observations: readonly FundingObservation[];
  readonly at: number;
}

/** One settled payment as GET /v1/funding-rates/history lists it. */
export interface SettlementView {
  exchange: string;
  ticker: string;
  settledAt: string;
  rate: number;
  intervalHours: number;
  markPrice: number | null;
}

const DAY_MS = 86_400_000;

@Injectable()
export class FundingRatesService implements OnModuleDestroy {
  private readonly logger = new Logger('FundingRates');
  private readonly exchanges: readonly ExchangeName[];
  private readonly lastGood = new Map<ExchangeName, FundingObservation[]>();
  private readonly schedules = new Map<string, ScheduleMemory>();
  private ranking: FundingRanking;
  private spreadsView: FundingSpreads;
  private lastCollection: FundingCollection = { observations: [], at: 0 };
  private readonly settledChanges: Subscription | undefined;
  private readonly collectedSubject = new Subject<FundingCollection>();
  /** Every collection's observations (the ingest role relays them to API instances). */
  readonly collected: Observable<FundingCollection> = this.collectedSubject.asObservable();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(MARKET_DATA_SOURCE) private readonly source: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
    private readonly fundingBook: FundingRateBook,
    @Optional() private readonly settlements?: FundingSettlementsService,
  ) {
    this.exchanges = config.marketData.exchanges;
    this.ranking = new FundingRanking([], clock.now());
    this.spreadsView = new FundingSpreads([], clock.now(), () => null);
    // Fresh settled figures rebuild the ranking of the last collection (never per request).
    this.settledChanges = settlements?.changed.subscribe(() => this.adopt(this.lastCollection));
  }

  onModuleDestroy(): void {
    this.settledChanges?.unsubscribe();
  }

  /** GET /v1/funding-rates/spreads: validated, then served from the spreads of the last ranking. */
  spreads(raw: Partial<Record<'minAprSpread' | 'days' | 'limit' | 'offset', unknown>>): SpreadsPage {
    return this.spreadsView.page(parseSpreadsQuery(raw));
  }

  /** GET /v1/funding-rates/history: one coin's stored payments, oldest first (at most 90 days × 24 × 5 rows). */
  async history(raw: Partial<Record<'ticker' | 'exchange' | 'days', unknown>>): Promise<SettlementView[]> {
    const q = parseHistoryQuery(raw, this.exchanges);
    const rows = this.settlements ? await this.settlements.history(q.ticker, q.exchange, this.clock.now() - q.days * DAY_MS) : [];
    return rows.map(toView);
  }

  /** GET /v1/funding-rates: validated, then served from the last ranking. */
  list(raw: RawFundingQuery): FundingPage {
    return this.ranking.page(parseFundingQuery(raw, this.exchanges), this.clock.now());
  }

  async collect(): Promise<CollectionResult> {
    const reads = await Promise.allSettled(this.exchanges.map((e) => this.source.fetchFundingRates(e)));
    const now = this.clock.now();
    const result: CollectionResult = { succeeded: [], failed: [], contracts: 0 };
    reads.forEach((read, i) => {
      const exchange = this.exchanges[i];
      if (read.status === 'fulfilled') {
        this.lastGood.set(exchange, read.value.map((s) => this.observe(exchange, s, now)));
        result.succeeded.push(exchange);
      } else {
        // Keep the last good values: they age into `stale` rather than vanishing.
        this.logger.warn({ msg: 'funding read failed, keeping the last values', exchange, error: errorFields(read.reason) });
        result.failed.push(exchange);
      }
    });
    const observations = [...this.lastGood.values()].flat();
    this.adopt({ observations, at: now });
    this.collectedSubject.next({ observations, at: now });
    result.contracts = observations.length;
    await this.settle(observations, now);
    return result;
  }

  /** Settled funding: what this collection saw, then a backfill of what is due (in the background). */
  private async settle(observations: readonly FundingObservation[], now: number): Promise<void> {
    if (!this.settlements) return;
    const settlements = this.settlements;
    try {
      await settlements.observe(observations, now);
      void settlements.backfill().catch((err: unknown) => this.logger.error({ msg: 'funding backfill failed', error: errorFields(err) }));
    } catch (err) {
      this.logger.error({ msg: 'funding settlements not recorded', error: errorFields(err) });
    }
  }

  /** Serves a collection: this process's own, or (on an API instance) the ingest process's. */
  adopt(collection: FundingCollection): void {
    const { observations, at } = collection;
    this.lastCollection = collection;
    const cache = this.settlements?.cache;
    this.ranking = new FundingRanking(observations, at, cache ? (e, t) => cache.figures(e, t) : undefined);
    this.spreadsView = new FundingSpreads(this.ranking.entries, at, (e, t) => this.perpetualMid(e, t, at));
    // Samples (rules: recorders) and through them the calculator (rules: calculator-market-data) carry the latest collected rate.
    this.fundingBook.replace(observations.map((o) => ({ exchange: o.exchange, ticker: o.symbol, fundingRate: o.fundingRate })));
  }

  /** The perpetual's mid when its quote is fresh: the basis of a spread. */
  private perpetualMid(exchange: string, ticker: string, now: number): number | null {
    const q = this.book.get(exchange as ExchangeName, 'FUTURES', ticker);
    return q && !this.book.isStale(q, now) ? roundPrice(dec(q.bid).plus(q.ask).div(2)) : null;
  }

  private observe(exchange: ExchangeName, s: FundingSnapshot, now: number): FundingObservation {
    const derived = this.rememberSchedule(`${exchange}|${s.contract}`, s.nextFundingTime, now);
    const stated = s.intervalSource === 'exchange' && s.intervalSeconds !== null;
    const spot = this.book.get(exchange, 'SPOT', s.ticker);
    return {
      exchange,
      contract: s.contract,
      symbol: s.ticker,
      fundingRate: s.fundingRate,
      intervalSeconds: stated ? s.intervalSeconds : derived,
      intervalSource: stated ? 'exchange' : derived !== null ? 'derived_schedule' : 'unavailable',
      nextFundingTime: s.nextFundingTime,
      // The `funding` rule: the spot mid of the same exchange, when a fresh quote is known; a price figure (README
      // "Money and percent figures"), so (0.1 + 0.2) ÷ 2 is 0.15, not 0.15000000000000002.
      spotPrice: spot && !this.book.isStale(spot, now) ? roundPrice(dec(spot.bid).plus(spot.ask).div(2)) : null,
      markPrice: s.markPrice,
      updatedAt: now,
    };
  }

  /** Tracks the announced next funding time; returns the interval derived so far, or null. */
  private rememberSchedule(key: string, nextFundingTime: number | null, now: number): number | null {
    const memory = this.schedules.get(key);
    if (nextFundingTime === null) return memory?.derivedSeconds ?? null;
    const current: ScheduleMemory = { nextFundingTime, observedAt: now, derivedSeconds: null };
    const derived = memory && memory.nextFundingTime !== nextFundingTime
      ? (deriveIntervalSeconds(memory, current) ?? memory.derivedSeconds)
      : (memory?.derivedSeconds ?? null);
    current.derivedSeconds = derived;
    this.schedules.set(key, current);
    return derived;
  }
}

function toView(s: StoredSettlement): SettlementView {
  return {
    exchange: s.exchange, ticker: s.ticker, settledAt: new Date(s.settledAt).toISOString(), rate: s.rate,
    intervalHours: s.intervalHours, markPrice: s.markPrice,
  };
}
