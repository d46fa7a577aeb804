import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import { errorFields } from '../common/logging/json-logger.js';
import { dec, roundPercent } from '../common/money/money.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { BacktestEngine } from './backtest.engine.js';
import { BacktestResultDto } from './dto/backtest-result.dto.js';
import type { HistoryStatsDto } from './dto/history-stats.dto.js';
import type { ImportHistoryResultDto } from './dto/import-history.dto.js';
import { rowsOf, validateRows } from './import-rows.js';
import { OpportunityHistoryRepository, type TimeRange } from './opportunity-history.repository.js';
import type { RouteLifetimesDto } from './dto/route-lifetimes.dto.js';
import { RouteEpisodeRepository } from './route-episode.repository.js';
import { DEFAULT_CAPITAL, parseBacktestRequest, parseRouteLookBack, parseRouteParams, type RawParams } from './route-params.js';

export const HISTORY_UNAVAILABLE = 'opportunity history unavailable';
const DAY_MS = 86_400_000;

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

  /** D8: every row is validated before anything is stored; n = rows in the request. */
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
      }),
    );
    return {
      ...params,
      samples: row.samples,
      windows: row.windows,
      minutesAbove: (row.samplesAbove * this.intervalMs) / 60_000,
      maxSpread: spreadFigure(row.maxSpread),
      avgSpread: spreadFigure(row.avgSpread),
      p50Spread: spreadFigure(row.p50Spread),
      p90Spread: spreadFigure(row.p90Spread),
      firstSampleAt: row.firstSampleAt?.toISOString() ?? null,
      lastSampleAt: row.lastSampleAt?.toISOString() ?? null,
    };
  }

  /** Issue 21: lifetime statistics of the route's episodes that opened in the look-back. */
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
    };
  }

  /** Walks the look-back page by page through the engine; one page is in memory at a time. */
  async backtest(raw: RawParams): Promise<BacktestResultDto> {
    const request = parseBacktestRequest(raw, this.exchanges);
    const engine = new BacktestEngine({ ...request, intervalMs: this.intervalMs });
    const route = { ticker: request.ticker, buy: request.buy, sell: request.sell };
    await this.store(async () => {
      for await (const page of this.repository.walkPages(route, lookBack(request.days), request)) {
        for (const sample of page) engine.push(sample);
      }
    });
    return BacktestResultDto.from(engine.finish());
  }

  /** Any failure of the store is a 503 with the D2 text; the cause is logged, never shown. */
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

function lookBack(days: number): TimeRange {
  const to = new Date();
  return { from: new Date(to.getTime() - days * DAY_MS), to };
}
