import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One group's result for one day, as the job stores it. */
export interface GroupCount {
  ticker: string;
  exchange: string;
  crossingCount: number;
  samples: number;
}

/** One row of the read endpoint (rules: funding). */
export interface CrossingCountSummary {
  ticker: string;
  exchange: string;
  crossingCount: number;
  days: number;
}

export interface CrossingCountFilter {
  from: string;
  to: string;
  ticker?: string;
  exchange?: string;
}

interface SummaryRow {
  ticker: string;
  exchange: string;
  crossing_count: string;
  days: string;
}

/** crossing_counts (rules: crossing-counts): the job's per-date upsert and the read endpoint's sums. */
@Injectable()
export class CrossingCountRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores a date's results in ONE transaction, so a reader sees either the previous run or this
   * one, never a mix. The advisory lock (keyed by the date) serialises concurrent runs of the same
   * date, also across service instances, so their writes cannot interleave or deadlock; the upsert
   * on the primary key replaces earlier values instead of duplicating them.
   */
  async upsertDay(processingDate: string, counts: readonly GroupCount[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('crossing_counts'), hashtext($1))`, [processingDate]);
      await tx.query(
        `INSERT INTO crossing_counts (processing_date, ticker, exchange, crossing_count, samples, processed_at)
         SELECT $1::date, t.ticker, t.exchange, t.crossing_count, t.samples, now()
         FROM unnest($2::text[], $3::text[], $4::int[], $5::int[]) AS t(ticker, exchange, crossing_count, samples)
         ON CONFLICT (processing_date, ticker, exchange) DO UPDATE SET
           crossing_count = EXCLUDED.crossing_count, samples = EXCLUDED.samples, processed_at = EXCLUDED.processed_at`,
        [
          processingDate,
          counts.map((c) => c.ticker),
          counts.map((c) => c.exchange),
          counts.map((c) => c.crossingCount),
          counts.map((c) => c.samples),
        ],
      );
    });
  }

  /** Sums over the inclusive date range, in the `funding` rule's order; ties by plain code-unit order ("C"). */
  async summarize(filter: CrossingCountFilter): Promise<CrossingCountSummary[]> {
    const params: unknown[] = [filter.from, filter.to];
    let where = 'processing_date BETWEEN $1::date AND $2::date';
    if (filter.ticker !== undefined) {
      params.push(filter.ticker);
      where += ` AND ticker = $${params.length}`;
    }
    if (filter.exchange !== undefined) {
      params.push(filter.exchange);
      where += ` AND exchange = $${params.length}`;
    }
    const rows: SummaryRow[] = await this.db.query(
      `SELECT ticker, exchange, sum(crossing_count)::text AS crossing_count, count(*)::text AS days
       FROM crossing_counts WHERE ${where}
       GROUP BY ticker, exchange
       ORDER BY sum(crossing_count) DESC, ticker COLLATE "C", exchange COLLATE "C"`,
      params,
    );
    return rows.map((r) => ({
      ticker: r.ticker,
      exchange: r.exchange,
      crossingCount: Number(r.crossing_count),
      days: Number(r.days),
    }));
  }
}
