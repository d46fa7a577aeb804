import { type Observable, Subject } from 'rxjs';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { dec, roundPrice } from '../common/money/money.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import type { ExchangeName } from '../market-data/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data/market-data.constants.js';
import type { FundingSnapshot, MarketDataSource } from '../market-data/market-data-source.js';
import { FundingRateBook } from '../market-data/funding-rate-book.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { deriveIntervalSeconds, type FundingObservation, type ScheduleObservation } from './funding.engine.js';
import { FundingRanking, type FundingPage } from './funding-ranking.js';
import { parseFundingQuery, type RawFundingQuery } from './funding-query.js';

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
 * The funding collector and the ranking it serves (issue 8, SPEC 4.6, D11). A collection reads
 * every configured exchange through the MarketDataSource, keeps the last good read of an
 * exchange that fails (its entries turn stale after 15 minutes), and builds and sorts the
 * ranking once. Requests read only that in-memory ranking: they never reach an exchange.
 */
/** The observations of one collection and when it was made. */
export interface FundingCollection {
  readonly observations: readonly FundingObservation[];
  readonly at: number;
}

@Injectable()
export class FundingRatesService {
  private readonly logger = new Logger('FundingRates');
  private readonly exchanges: readonly ExchangeName[];
  private readonly lastGood = new Map<ExchangeName, FundingObservation[]>();
  private readonly schedules = new Map<string, ScheduleMemory>();
  private ranking: FundingRanking;
  private readonly collectedSubject = new Subject<FundingCollection>();
  /** Every collection's observations (issue 20: the ingest role relays them to API instances). */
  readonly collected: Observable<FundingCollection> = this.collectedSubject.asObservable();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(MARKET_DATA_SOURCE) private readonly source: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
    private readonly fundingBook: FundingRateBook,
  ) {
    this.exchanges = config.marketData.exchanges;
    this.ranking = new FundingRanking([], clock.now());
  }

  /** GET /v1/funding-rates: validated, then served from the last ranking. */
  list(raw: RawFundingQuery): FundingPage {
    return this.ranking.page(parseFundingQuery(raw), this.clock.now());
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
        this.logger.warn(`${exchange}: funding read failed, keeping the last values: ${String(read.reason)}`);
        result.failed.push(exchange);
      }
    });
    const observations = [...this.lastGood.values()].flat();
    this.adopt({ observations, at: now });
    this.collectedSubject.next({ observations, at: now });
    result.contracts = observations.length;
    return result;
  }

  /** Serves a collection: this process's own, or (on an API instance, issue 20) the ingest process's. */
  adopt({ observations, at }: FundingCollection): void {
    this.ranking = new FundingRanking(observations, at);
    // Samples (D8) and through them the calculator (D5) carry the latest collected rate.
    this.fundingBook.replace(observations.map((o) => ({ exchange: o.exchange, ticker: o.symbol, fundingRate: o.fundingRate })));
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
      // D11: the spot mid of the same exchange, when a fresh quote is known; a price figure (README
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
