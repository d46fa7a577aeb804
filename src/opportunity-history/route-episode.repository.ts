import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { HistoryRoute, TimeRange } from './opportunity-history.repository.js';
import { RouteEpisodeEntity } from './route-episode.entity.js';
import type { RouteEpisode } from './route-episodes.js';

const COLUMNS = [
  'ticker', 'buy_exchange', 'sell_exchange', 'opened_at', 'closed_at', 'lifetime_ms',
  'peak_gross_percent', 'peak_net_percent', 'transferable', 'costs_estimated', 'peak_max_size_usdt',
] as const;
/** 5,000 rows × 11 parameters = 55,000, under PostgreSQL's 65,535 bind parameters per statement. */
export const EPISODE_CHUNK_ROWS = 5000;

export interface LifetimeRow {
  episodes: number;
  medianMs: number | null;
  p90Ms: number | null;
  transferable: number;
  /** Nearest-rank median of the episodes' peak maxSizeUsdt, over the episodes that have one. */
  medianMaxSizeUsdt: number | null;
}

@Injectable()
export class RouteEpisodeRepository {
  constructor(@InjectRepository(RouteEpisodeEntity) private readonly table: Repository<RouteEpisodeEntity>) {}

  /** Stores episodes in one transaction; an episode stored again (same route and opening) keeps the newer values. */
  async insert(episodes: readonly RouteEpisode[]): Promise<void> {
    if (episodes.length === 0) return;
    await this.table.manager.transaction(async (manager) => {
      for (let i = 0; i < episodes.length; i += EPISODE_CHUNK_ROWS) {
        const params: unknown[] = [];
        const tuples = episodes.slice(i, i + EPISODE_CHUNK_ROWS).map((e) => {
          const base = params.length;
          params.push(
            e.ticker, e.buyExchange, e.sellExchange, e.openedAt.toISOString(), e.closedAt.toISOString(),
            e.closedAt.getTime() - e.openedAt.getTime(), e.peakGrossPercent, e.peakNetPercent, e.transferable, e.costsEstimated,
            e.peakMaxSizeUsdt,
          );
          return `(${COLUMNS.map((_, j) => `$${base + j + 1}`).join(', ')})`;
        });
        await manager.query(
          `INSERT INTO route_episodes (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
           ON CONFLICT (ticker, buy_exchange, sell_exchange, opened_at) DO UPDATE SET
             closed_at = EXCLUDED.closed_at, lifetime_ms = EXCLUDED.lifetime_ms,
             peak_gross_percent = EXCLUDED.peak_gross_percent, peak_net_percent = EXCLUDED.peak_net_percent,
             transferable = EXCLUDED.transferable, costs_estimated = EXCLUDED.costs_estimated,
             peak_max_size_usdt = EXCLUDED.peak_max_size_usdt`,
          params,
        );
      }
    });
  }

  /**
   * Lifetime statistics of the route's episodes that opened in the look-back: count, nearest-rank
   * median and 90th percentile (percentile_disc, as the `windows` rule's spread percentiles), transferable count.
   */
  async lifetimes(route: HistoryRoute, range: TimeRange): Promise<LifetimeRow> {
    const [row] = await this.table.query<Record<string, unknown>[]>(
      `SELECT count(*) AS episodes,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY lifetime_ms) AS p50,
              percentile_disc(0.9) WITHIN GROUP (ORDER BY lifetime_ms) AS p90,
              count(*) FILTER (WHERE transferable) AS transferable,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY peak_max_size_usdt) AS max_size_p50
         FROM route_episodes
        WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND opened_at >= $4 AND opened_at <= $5`,
      [route.ticker, route.buy, route.sell, range.from.toISOString(), range.to.toISOString()],
    );
    // PostgreSQL returns COUNT and bigint as strings, PGlite as numbers: converted here, once.
    const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
    return { episodes: num(row?.episodes) ?? 0, medianMs: num(row?.p50), p90Ms: num(row?.p90), transferable: num(row?.transferable) ?? 0,
      medianMaxSizeUsdt: num(row?.max_size_p50) };
  }

  /**
   * Retention with the history's: deletes episodes opened before `before`. Episodes are few next
   * to samples (one per threshold crossing), so one statement without a time index does.
   */
  async deleteBefore(before: Date): Promise<number> {
    const [row] = await this.table.query<{ n: number | string }[]>(
      `WITH gone AS (DELETE FROM route_episodes WHERE opened_at < $1 RETURNING 1) SELECT count(*)::int4 AS n FROM gone`,
      [before.toISOString()],
    );
    return Number(row?.n ?? 0);
  }
}
