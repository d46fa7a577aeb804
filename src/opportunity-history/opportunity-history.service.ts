import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import { errorFields } from '../common/logging/json-logger.js';
import { dec, roundPercent } from '../common/money/money.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Slicer, takeTurn } from '../common/async/turns.js';
import { BacktestEngine, type BacktestSample } from './backtest.engine.js';
import { BacktestSweep, rankSweep, type SweepRow } from './backtest-sweep.engine.js';
import type { BacktestSweepResultDto } from './dto/backtest-sweep.dto.js';
import { parseSweepRequest, type RawSweep } from './sweep-params.js';
import { backtestPeriod, backtestReport } from './backtest-report.js';
import { BacktestResultDto } from './dto/backtest-result.dto.js';
import type { HistoryStatsDto } from './dto/history-stats.dto.js';
import type { ImportHistoryResultDto } from './dto/import-history.dto.js';
import { rowsOf, validateRows } from './import-rows.js';
import { OpportunityHistoryRepository, type TimeRange } from './opportunity-history.repository.js';
import type { RouteLifetimesDto } from './dto/route-lifetimes.dto.js';
import type { SpreadSeriesDto } from './dto/spread-series.dto.js';
import type { SpreadSamplesDto } from './dto/spread-samples.dto.js';
import { RouteEpisodeRepository } from './route-episode.repository.js';
import { DEFAULT_CAPITAL, basisOf, parseBacktestRequest, parseRouteLookBack, parseRouteParams, parseRouteRecent, type RawParams } from './route-params.js';

export const HISTORY_UNAVAILABLE = 'opportunity history unavailable';
const DAY_MS = 86_400_000;
/** A series answers at most this many buckets. */
export const SERIES_MAX_POINTS = 500;
/** The samples query answers at most this many samples (the newest). */
export const SAMPLES_MAX = 10_000;

@Injectable()
export class OpportunityHistoryService {
  private readonly logger = new Logger(OpportunityHistoryService.name);
  private readonly exchanges: readonly string[];
  private readonly intervalMs: number;

  constructor(
    private readonly repository: OpportunityHistoryRepository,
    private readonly episodes: RouteEpisodeRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.exchanges = config.marketData.exchanges;
    this.intervalMs = config.history.intervalMs;
  }

  /** The `recorders` rule: every row is validated before anything is stored; n = rows in the request. */
  async import(body: unknown): Promise<ImportHistoryResultDto> {
    const samples = validateRows(rowsOf(body));
    await this.store(() => this.repository.upsert(samples));
    return { imported: samples.length };
  }

  async stats(raw: RawParams): Promise<HistoryStatsDto> {
    const params = parseRouteParams(raw, this.exchanges, 'query');
    const route = { ticker: params.ticker, buy: params.buy, sell: params.sell };
    const row = await this.store(() =>
      this.repository.stats(route, lookBack(params.days), {
        basis: params.basis,
        threshold: params.threshold,
        capital: DEFAULT_CAPITAL,
        maxGapMs: 3 * this.intervalMs,
        holdMs: this.intervalMs,
      }),
    );
    return {
      ...params,
      samples: row.samples,
      windows: row.windows,
      // rules: windows. Samples HISTORY_INTERVAL_MS apart each hold one interval: samples at or above × interval.
      minutesAbove: row.msAbove / 60_000,
      maxSpread: spreadFigure(row.maxSpread),
      avgSpread: spreadFigure(row.avgSpread),
      p50Spread: spreadFigure(row.p50Spread),
      p90Spread: spreadFigure(row.p90Spread),
      firstSampleAt: row.firstSampleAt?.toISOString() ?? null,
      lastSampleAt: row.lastSampleAt?.toISOString() ?? null,
    };
  }

  /**
   * The route's recorded spread for a chart: the look-back cut into buckets of whole seconds,
   * aligned on the Unix epoch, wide enough that the look-back touches at most SERIES_MAX_POINTS
   * of them (a span of L seconds touches at most ⌈L ÷ width⌉ + 1 aligned buckets) and never
   * narrower than the recording interval.
   */
  async series(raw: RawParams): Promise<SpreadSeriesDto> {
    const route = parseRouteLookBack(raw, this.exchanges, 'query');
    const basis = basisOf(raw.basis);
    const bucketSeconds = seriesBucketSeconds(route.days, this.intervalMs);
    const rows = await this.store(() =>
      this.repository.series(route, lookBack(route.days), { basis, capital: DEFAULT_CAPITAL, bucketSeconds }),
    );
    return {
      ...route,
      basis,
      bucketSeconds,
      points: rows.map((r) => ({
        time: r.start.toISOString(),
        samples: r.samples,
        minSpread: roundPercent(dec(r.min)),
        avgSpread: roundPercent(dec(r.avg)),
        maxSpread: roundPercent(dec(r.max)),
      })),
    };
  }

  /**
   * The route's samples over the last `minutes`, as recorded (rules: recorders): for a chart that
   * plots each sample at its own time, holding until the next one for at most `holdMs`.
   */
  async samples(raw: RawParams): Promise<SpreadSamplesDto> {
    const route = parseRouteRecent(raw, this.exchanges);
    const basis = basisOf(raw.basis);
    const to = new Date();
    const range = { from: new Date(to.getTime() - route.minutes * 60_000), to };
    const rows = await this.store(() => this.repository.samples(route, range, { basis, capital: DEFAULT_CAPITAL, limit: SAMPLES_MAX + 1 }));
    const truncated = rows.length > SAMPLES_MAX;
    return {
      ...route,
      basis,
      holdMs: this.intervalMs,
      truncated,
      samples: (truncated ? rows.slice(1) : rows).map((r) => ({
        time: new Date(r.time).toISOString(),
        spread: roundPercent(dec(r.spread)),
      })),
    };
  }

  /** Lifetime statistics of the route's episodes that opened in the look-back. */
  async lifetimes(raw: RawParams): Promise<RouteLifetimesDto> {
    const params = parseRouteLookBack(raw, this.exchanges, 'query');
    const row = await this.store(() =>
      this.episodes.lifetimes({ ticker: params.ticker, buy: params.buy, sell: params.sell }, lookBack(params.days)));
    return {
      ...params,
      episodes: row.episodes,
      medianLifetimeMs: row.medianMs,
      p90LifetimeMs: row.p90Ms,
      transferableShare: row.episodes === 0 ? null : row.transferable / row.episodes,
      transferablePercent: row.episodes === 0 ? null : roundPercent(dec(row.transferable).times(100).div(row.episodes)),
      medianMaxSizeUsdt: row.medianMaxSizeUsdt,
    };
  }

  /** Walks the look-back page by page through the engine; one page is in memory at a time. */
  async backtest(raw: RawParams): Promise<BacktestResultDto> {
    const request = parseBacktestRequest(raw, this.exchanges);
    const engine = new BacktestEngine({ ...request, intervalMs: this.intervalMs });
    const route = { ticker: request.ticker, buy: request.buy, sell: request.sell };
    const range = lookBack(request.days);
    const slicer = new Slicer();
    await this.store(async () => {
      for await (const page of this.repository.walkPages(route, range, request)) await pushPaced(engine, page, slicer);
    });
    const result = engine.finish();
    const trades = engine.closedTrades();
    // The report (metrics, equity curve, breakdown) and its DTO are decimal CPU work: each in a turn of its own.
    await takeTurn();
    const report = backtestReport(trades, request.capital, backtestPeriod(trades, range), request.breakdown);
    await takeTurn();
    return BacktestResultDto.from(result, report);
  }

  /**
   * Every threshold × transfer time over one walk of the look-back (see BacktestSweep). The walk
   * skips rows by the lowest threshold; the CPU work is sliced so the event loop keeps serving
   * /health and the streams between slices.
   */
  async sweep(raw: RawSweep): Promise<BacktestSweepResultDto> {
    const request = parseSweepRequest(raw, this.exchanges);
    const sweep = new BacktestSweep({ ...request, intervalMs: this.intervalMs });
    const route = { ticker: request.ticker, buy: request.buy, sell: request.sell };
    const range = lookBack(request.days);
    const slicer = new Slicer();
    const walk = { basis: request.basis, threshold: sweep.lowestThreshold, capital: request.capital };
    await this.store(async () => {
      for await (const page of this.repository.walkPages(route, range, walk)) await pushPaced(sweep, page, slicer);
    });
    const rows: SweepRow[] = [];
    for (const combination of sweep.combinations()) {
      rows.push(sweep.rowOf(combination, range));
      await slicer.pace();
    }
    return { rows: rankSweep(rows, request.sort) };
  }

  /** Any failure of the store is a 503 with the `errors` rule text; the cause is logged, never shown. */
  private async store<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (error) {
      this.logger.error({ msg: 'opportunity history query failed', error: errorFields(error) });
      throw AppError.unavailable(HISTORY_UNAVAILABLE);
    }
  }
}

/**
 * A spread statistic, rounded by the money rule. PostgreSQL computes them over the samples in
 * double precision (the statistics of 90 days of samples in decimal would cost a multiple of
 * the query); see README "Money and percent figures".
 */
function spreadFigure(value: number | null): number | null {
  return value === null ? null : roundPercent(dec(value));
}

/**
 * Samples through a backtest or a sweep, giving the loop a turn whenever a slice's time is used
 * up: 50 backtests whose pages arrive in one poll of the loop would otherwise each walk a page
 * there, and /health would wait for all of them.
 */
async function pushPaced(walker: BacktestEngine | BacktestSweep, page: readonly BacktestSample[], slicer: Slicer): Promise<void> {
  const CHECK_EVERY = 64;
  await slicer.pace();
  for (let i = 0; i < page.length; i++) {
    walker.push(page[i]);
    if (i % CHECK_EVERY === CHECK_EVERY - 1) await slicer.pace();
  }
}

/** Bucket width in seconds for a look-back of `days` (see OpportunityHistoryService.series). */
export function seriesBucketSeconds(days: number, intervalMs: number): number {
  const spanSeconds = (days * DAY_MS) / 1000;
  return Math.max(Math.ceil(spanSeconds / (SERIES_MAX_POINTS - 1)), Math.ceil(intervalMs / 1000));
}

function lookBack(days: number): TimeRange {
  const to = new Date();
  return { from: new Date(to.getTime() - days * DAY_MS), to };
}
