import { Inject, Injectable } from '@nestjs/common';
import { TtlCache } from '../common/cache/ttl-cache.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { LATEST_SAMPLE_READER, MARKET_CACHE_MAX_ENTRIES } from './calculators.constants.js';
import type { LatestSample, LatestSampleReader } from './latest-sample-reader.js';
import type { MarketPrices } from './pnl.engine.js';

type Loaded = LatestSample | null;

/** The prices a calculator closes against, and when they were recorded. */
export interface MarketReading extends MarketPrices {
  at: Date;
}

/**
 * "Market data" for the calculator (rules: calculator-market-data): the latest recorded sample of (ticker, exchange) no
 * older than the configured age (20 min). Two shared caches sit in front of the one indexed
 * query: 55 s for the process endpoint, 5 s for the streams (rules: calculator, limits). Both are
 * single-flight and bounded, so a crowd asking for one key makes one query.
 */
@Injectable()
export class CalculatorMarketData {
  private readonly maxAgeMs: number;
  private readonly processCache: TtlCache<Loaded>;
  private readonly streamCache: TtlCache<Loaded>;
  /** Overridable time source, for tests. */
  now: () => number = Date.now;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LATEST_SAMPLE_READER) private readonly reader: LatestSampleReader,
  ) {
    const { processCacheMs, streamCacheMs, marketDataMaxAgeMs } = config.calculator;
    this.maxAgeMs = marketDataMaxAgeMs;
    const now = (): number => this.now();
    // A miss is not kept for 55 s: a position saved before its first sample would otherwise
    // read "not found" for up to a minute after data arrives.
    this.processCache = new TtlCache({ ttlMs: processCacheMs, maxEntries: MARKET_CACHE_MAX_ENTRIES, now, shouldCache: (v) => v !== null });
    // The stream keeps misses too: it asks every second, and a 5 s lag on resuming is the
    // lag the `calculator` rule already allows for data.
    this.streamCache = new TtlCache({ ttlMs: streamCacheMs, maxEntries: MARKET_CACHE_MAX_ENTRIES, now });
  }

  forProcess(ticker: string, exchange: string): Promise<MarketReading | null> {
    return this.read(this.processCache, ticker, exchange);
  }

  forStream(ticker: string, exchange: string): Promise<MarketReading | null> {
    return this.read(this.streamCache, ticker, exchange);
  }

  private async read(cache: TtlCache<Loaded>, ticker: string, exchange: string): Promise<MarketReading | null> {
    const sample = await cache.get(`${ticker}|${exchange}`, () =>
      this.reader.latestSample(ticker, exchange, new Date(this.now() - this.maxAgeMs)),
    );
    return sample && this.usable(sample) ? { spotBid: sample.spotBid, futuresAsk: sample.futuresAsk, fundingRate: sample.fundingRate, at: sample.time } : null;
  }

  /**
   * Re-checked on every read, because a cached sample keeps ageing: one fetched at 19 min 50 s
   * must not be served at 20 min 30 s. A non-positive price is no market to close against.
   */
  private usable(sample: LatestSample): boolean {
    return sample.time.getTime() >= this.now() - this.maxAgeMs && sample.spotBid > 0 && sample.futuresAsk > 0;
  }
}
