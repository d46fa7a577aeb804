import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { BacktestSample, SpreadBasis } from './backtest.engine.js';
import { OpportunityHistoryEntity } from './opportunity-history.entity.js';
import { type OpportunitySample, sampleKey } from './opportunity-sample.js';
import { PACKED_SAMPLE_SQL, unpackSamples } from './packed-samples.js';
import { readAhead } from '../common/async/read-ahead.js';
import { SQL_BAND_PER_SCALE, SQL_BAND_UNIT } from '../common/money/money.js';

export interface HistoryRoute {
  ticker: string;
  buy: string;
  sell: string;
}

/** A closed look-back [from, to]. */
export interface TimeRange {
  from: Date;
  to: Date;
}

export interface StatsQuery {
  basis: SpreadBasis;
  threshold: number;
  /** Net spreads charge the withdrawal fee against this capital (rules: windows; 1000 for stats). */
  capital: number;
  /** A gap longer than this ends a window (3 × HISTORY_INTERVAL_MS). */
  maxGapMs: number;
  /** A sample holds its spread until the route's next sample, at most this long (HISTORY_INTERVAL_MS). */
  holdMs: number;
}

/** What decides which samples a backtest walk can skip. */
export interface WalkFilter {
  basis: SpreadBasis;
  threshold: number;
  capital: number;
}

export interface StatsRow {
  samples: number;
  samplesAbove: number;
  /** Time held by the samples at or above the threshold (rules: windows), ms. */
  msAbove: number;
  windows: number;
  maxSpread: number | null;
  avgSpread: number | null;
  p50Spread: number | null;
  p90Spread: number | null;
  firstSampleAt: Date | null;
  lastSampleAt: Date | null;
}

export interface SeriesQuery {
  basis: SpreadBasis;
  /** Net spreads charge the withdrawal fee against this capital. */
  capital: number;
  bucketSeconds: number;
}

/** One recorded sample of a route's spread on a basis (PostgreSQL double precision; rounded by the service). */
export interface SpreadSampleRow {
  /** Unix ms. */
  time: number;
  spread: number;
}

/** One time bucket of a route's spread (PostgreSQL double precision; rounded by the service). */
export interface SeriesRow {
  start: Date;
  samples: number;
  min: number;
  avg: number;
  max: number;
}

const COLUMNS = [
  'ticker', 'buy_exchange', 'sell_exchange', 'time', 'buy_price', 'sell_price', 'gross_spread_percent',
  'buy_fee_percent', 'sell_fee_percent', 'withdrawal_fee', 'withdrawal_fee_usd', 'fees_estimated', 'executable', 'volume_24h',
] as const;
const KEY = ['ticker', 'buy_exchange', 'sell_exchange', 'time'];
/** 4,000 rows × 14 parameters = 56,000, under PostgreSQL's 65,535 bind parameters per statement. */
export const UPSERT_CHUNK_ROWS = 4000;
export const BACKTEST_PAGE_ROWS = 10_000;
export const RETENTION_CHUNK_ROWS = 10_000;

/** One time slice of a walk, read as a chain of keyset pages. */
interface Slice {
  start: string;
  end: string;
  /** Only the look-back's last slice includes its end (`to`); the others stop before the next slice. */
  endInclusive: boolean;
}

interface PageCursor {
  /** The slice start, or the previous page's last time (text as PostgreSQL printed it: exact to the µs). */
  after: string;
  /** A slice's first page includes a row AT its start; later pages start after the cursor. */
  inclusive: boolean;
  pageRows: number;
}

interface PackedPage {
  rows: number;
  last: string | null;
  packed: Uint8Array;
}

/** The spread on each basis as SQL, the same arithmetic in the same order as spreadOnBasis. */
const SPREAD_SQL: Record<SpreadBasis, (capitalParam: string) => string> = {
  gross: () => 'gross_spread_percent',
  net: (capital) =>
    `gross_spread_percent - buy_fee_percent - sell_fee_percent - withdrawal_fee_usd / ${capital}::float8 * 100`,
};

/**
 * The spread in decimal (PostgreSQL numeric, each double through its shortest text form, as
 * decimal.js reads it), rounded to 8 decimals half away from zero: the money policy's figure.
 */
const EXACT_SPREAD_SQL: Record<SpreadBasis, (capitalParam: string) => string> = {
  gross: () => 'round(gross_spread_percent::text::numeric, 8)',
  net: (capital) =>
    `round(gross_spread_percent::text::numeric - buy_fee_percent::text::numeric - sell_fee_percent::text::numeric
       - withdrawal_fee_usd::text::numeric / ${capital}::numeric * 100, 8)`,
};

/** The magnitude of the terms of SPREAD_SQL, as atOrAboveThreshold's `scale`. */
const SCALE_SQL: Record<SpreadBasis, (capitalParam: string) => string> = {
  gross: () => 'abs(gross_spread_percent)',
  net: (capital) =>
    `abs(gross_spread_percent) + buy_fee_percent + sell_fee_percent + withdrawal_fee_usd / ${capital}::float8 * 100`,
};

@Injectable()
export class OpportunityHistoryRepository {
  constructor(
    @InjectRepository(OpportunityHistoryEntity) private readonly table: Repository<OpportunityHistoryEntity>,
  ) {}

  /**
   * Stores samples idempotently in one transaction: same route and time → one row, the newer
   * values win (later rows of the same call, then later calls). The import and the live recorder
   * both write through here.
   */
  async upsert(samples: readonly OpportunitySample[]): Promise<void> {
    const latest = [...new Map(samples.map((s) => [sampleKey(s), s])).values()];
    if (latest.length === 0) return;
    await this.table.manager.transaction(async (manager) => {
      for (let i = 0; i < latest.length; i += UPSERT_CHUNK_ROWS) {
        await insertChunk(manager, latest.slice(i, i + UPSERT_CHUNK_ROWS));
      }
    });
  }

  /**
   * The samples a `windows` walk needs, oldest first, in pages of at most `pageRows`. Skipped: a sample
   * below the threshold whose predecessor is also below it. No window is open there (the
   * predecessor already closed it) and the next window starts whatever the gap, so the walk's
   * result is the same and far fewer rows cross the wire.
   * The look-back is cut into one-day slices, each a chain of keyset pages. While this slice is
   * walked, its next page and the next slice's first page are already being read, so
   * PostgreSQL works on two connections (two cores) and memory holds a few pages at most.
   */
  async *walkPages(route: HistoryRoute, range: TimeRange, walk: WalkFilter, pageRows = BACKTEST_PAGE_ROWS): AsyncGenerator<BacktestSample[]> {
    // Slices start at the route's first sample in the look-back: a route with a day of history
    // costs a day of reads, not one query per day of `days`.
    const first = await this.firstSampleAt(route, range);
    if (!first) return;
    const chains = sliceRange({ from: first, to: range.to }).map((slice) => this.slicePages(route, range, walk, slice, pageRows));
    let ahead = started(chains[0]);
    for (let i = 0; i < chains.length; i++) {
      let step = ahead;
      ahead = started(chains[i + 1]);
      for (let page = await step; page && !page.done; page = await step) {
        step = started(chains[i]);
        yield page.value;
      }
    }
  }

  private async firstSampleAt(route: HistoryRoute, range: TimeRange): Promise<Date | null> {
    const [row] = await this.table.query<{ first: string | null }[]>(
      `SELECT min(time)::text AS first FROM opportunity_history
        WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time >= $4 AND time <= $5`,
      [route.ticker, route.buy, route.sell, range.from.toISOString(), range.to.toISOString()],
    );
    return row?.first ? new Date(row.first) : null;
  }

  /** One slice's pages; the next page is read while the caller walks the current one. */
  private async *slicePages(route: HistoryRoute, range: TimeRange, walk: WalkFilter, slice: Slice, pageRows: number): AsyncGenerator<BacktestSample[]> {
    const read = (after: string, inclusive: boolean): Promise<PackedPage> =>
      readAhead(this.readPage(route, range, walk, slice, { after, inclusive, pageRows }));
    let next: Promise<PackedPage> | null = read(slice.start, true);
    while (next) {
      const page: PackedPage = await next;
      next = page.rows === pageRows && page.last !== null ? read(page.last, false) : null;
      if (page.rows > 0) yield unpackSamples(page.packed);
    }
  }

  private async readPage(route: HistoryRoute, range: TimeRange, walk: WalkFilter, slice: Slice, at: PageCursor): Promise<PackedPage> {
    // Conservative: a row is "above" here whenever the engine might find it at or above the
    // threshold (atOrAboveThreshold decides the last 5e-9 in decimal), so a skipped row is one
    // the engine would also find below. The margin is wider than the engine's band.
    const above = `${SPREAD_SQL[walk.basis]('$9')} >= $7::float8 - (${SQL_BAND_UNIT} + ${SQL_BAND_PER_SCALE} * (${SCALE_SQL[walk.basis]('$9')} + $7::float8 + 1))`;
    // The window starts at the row just before `after` (within the look-back) so the first row
    // read still sees its predecessor; that row itself is not returned. The aggregate reads the
    // page in its ORDER BY order; `string_agg(… ORDER BY ts)` would sort it a second time (a
    // third of the read's CPU on PostgreSQL 15), so unpackSamples checks the order instead.
    const [row] = await this.table.query<{ rows: number; last: string | null; packed: Uint8Array | null }[]>(
      `WITH page AS (
         SELECT * FROM (SELECT time AS ts, gross_spread_percent, buy_fee_percent, sell_fee_percent, withdrawal_fee_usd,
                               fees_estimated, executable, ${above} AS above, LAG(${above}) OVER (ORDER BY time) AS prev_above
                          FROM opportunity_history
                         WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time ${slice.endInclusive ? '<=' : '<'} $5
                           AND time >= coalesce((SELECT max(time) FROM opportunity_history
                                                  WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3
                                                    AND time >= $8 AND time < $4), $4)) AS s
          WHERE (above OR prev_above IS NOT FALSE) AND ts ${at.inclusive ? '>=' : '>'} $4
          ORDER BY ts
          LIMIT $6)
       SELECT count(*)::int4 AS rows, max(ts)::text AS last, string_agg(${PACKED_SAMPLE_SQL}, ''::bytea) AS packed
         FROM page`,
      [route.ticker, route.buy, route.sell, at.after, slice.end, at.pageRows, walk.threshold, range.from.toISOString(),
        // Only the net basis reads the capital; an unreferenced parameter would have no type.
        ...(walk.basis === 'net' ? [walk.capital] : [])],
    );
    return { rows: row?.rows ?? 0, last: row?.last ?? null, packed: row?.packed ?? new Uint8Array(0) };
  }

  /**
   * Retention: deletes rows older than `before` and returns how many. The primary key leads with
   * the route, so the routes are listed by a skip scan of it and each route's old rows are a
   * range of it (`route = … AND time < …`): no index on time alone is needed. Chunks of
   * `chunkRows` rows per statement keep each transaction, its locks and its WAL small.
   */
  async deleteBefore(before: Date, chunkRows = RETENTION_CHUNK_ROWS): Promise<number> {
    let deleted = 0;
    for (const route of await this.routes()) {
      for (;;) {
        const [row] = await this.table.query<{ n: number }[]>(
          `WITH gone AS (
             DELETE FROM opportunity_history WHERE ctid = ANY(ARRAY(
               SELECT ctid FROM opportunity_history
                WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time < $4 LIMIT $5))
             RETURNING 1)
           SELECT count(*)::int4 AS n FROM gone`,
          [route.ticker, route.buy, route.sell, before.toISOString(), chunkRows],
        );
        deleted += row?.n ?? 0;
        if ((row?.n ?? 0) < chunkRows) break;
      }
    }
    return deleted;
  }

  /** Every stored route, one index probe per route (a recursive skip scan of the primary key). */
  private async routes(): Promise<HistoryRoute[]> {
    return this.table.query<HistoryRoute[]>(
      `WITH RECURSIVE r AS (
         (SELECT ticker, buy_exchange, sell_exchange FROM opportunity_history ORDER BY 1, 2, 3 LIMIT 1)
         UNION ALL
         SELECT n.* FROM r, LATERAL (
           SELECT ticker, buy_exchange, sell_exchange FROM opportunity_history
            WHERE (ticker, buy_exchange, sell_exchange) > (r.ticker, r.buy_exchange, r.sell_exchange)
            ORDER BY 1, 2, 3 LIMIT 1) AS n)
       SELECT ticker, buy_exchange AS buy, sell_exchange AS sell FROM r`,
    );
  }

  /**
   * The `windows` rule statistics in one pass of the database. A window starts at a sample at or above the
   * threshold whose predecessor is below it, absent, or more than maxGapMs earlier: the same
   * rule the backtest engine walks. Each sample holds its spread until the route's next sample,
   * at most holdMs (the last one holdMs): the time above sums what the samples at or above hold.
   * percentile_disc is the nearest-rank percentile.
   */
  async stats(route: HistoryRoute, range: TimeRange, q: StatsQuery): Promise<StatsRow> {
    const params: unknown[] = [
      route.ticker, route.buy, route.sell, range.from.toISOString(), range.to.toISOString(), q.threshold, q.maxGapMs, q.holdMs,
    ];
    if (q.basis === 'net') params.push(q.capital);
    const spread = SPREAD_SQL[q.basis]('$9');
    // "At or above the threshold" as the backtest judges it: on the spread rounded to 8 decimals,
    // in doubles except near the threshold, where PostgreSQL's numeric (decimal) decides.
    const above = `CASE WHEN abs(${spread} - $6::float8) <= ${SQL_BAND_UNIT} + ${SQL_BAND_PER_SCALE} * (${SCALE_SQL[q.basis]('$9')} + $6::float8 + 1)
                        THEN ${EXACT_SPREAD_SQL[q.basis]('$9')} >= $6::numeric ELSE ${spread} >= $6::float8 END`;
    const [row] = await this.table.query<Record<string, unknown>[]>(
      `WITH s AS (
         SELECT time, ${spread} AS spread, ${above} AS above,
                LAG(time) OVER w AS prev_time, LAG(${above}) OVER w AS prev_above,
                least(coalesce(extract(epoch FROM LEAD(time) OVER w - time) * 1000, $8::numeric), $8::numeric) AS held_ms
           FROM opportunity_history
          WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time >= $4 AND time <= $5
         WINDOW w AS (ORDER BY time)
       )
       SELECT count(*) AS samples,
              count(*) FILTER (WHERE above) AS above,
              coalesce(sum(held_ms) FILTER (WHERE above), 0) AS ms_above,
              count(*) FILTER (WHERE above AND (prev_time IS NULL OR NOT prev_above
                OR time - prev_time > $7::float8 * interval '1 millisecond')) AS windows,
              max(spread) AS max, avg(spread) AS avg,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY spread) AS p50,
              percentile_disc(0.9) WITHIN GROUP (ORDER BY spread) AS p90,
              min(time) AS first, max(time) AS last
         FROM s`,
      params,
    );
    return statsRowOf(row ?? {});
  }

  /**
   * The route's spread on a basis over the range, bucketed by time: each bucket's sample count,
   * minimum, average and maximum, in time order. One aggregate query; empty buckets are absent.
   */
  async series(route: HistoryRoute, range: TimeRange, q: SeriesQuery): Promise<SeriesRow[]> {
    const params: unknown[] = [route.ticker, route.buy, route.sell, range.from.toISOString(), range.to.toISOString(), q.bucketSeconds];
    if (q.basis === 'net') params.push(q.capital);
    const spread = SPREAD_SQL[q.basis]('$7');
    const rows = await this.table.query<Record<string, unknown>[]>(
      `SELECT floor(extract(epoch FROM time) / $6::float8) AS bucket, count(*) AS samples,
              min(${spread}) AS min, avg(${spread}) AS avg, max(${spread}) AS max
         FROM opportunity_history
        WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time >= $4 AND time <= $5
        GROUP BY 1 ORDER BY 1`,
      params,
    );
    return rows.map((row) => ({
      start: new Date(Number(row.bucket) * q.bucketSeconds * 1000),
      samples: Number(row.samples),
      min: Number(row.min),
      avg: Number(row.avg),
      max: Number(row.max),
    }));
  }

  /**
   * The route's newest samples in the range, at most `limit`, oldest first, as recorded (no
   * bucketing): what a chart of a short span plots. Read newest first along the primary key.
   */
  async samples(route: HistoryRoute, range: TimeRange, q: { basis: SpreadBasis; capital: number; limit: number }): Promise<SpreadSampleRow[]> {
    const params: unknown[] = [route.ticker, route.buy, route.sell, range.from.toISOString(), range.to.toISOString(), q.limit];
    if (q.basis === 'net') params.push(q.capital);
    const rows = await this.table.query<{ ms: unknown; spread: unknown }[]>(
      `SELECT round(date_part('epoch', time) * 1000)::float8 AS ms, ${SPREAD_SQL[q.basis]('$7')} AS spread
         FROM opportunity_history
        WHERE ticker = $1 AND buy_exchange = $2 AND sell_exchange = $3 AND time >= $4 AND time <= $5
        ORDER BY time DESC LIMIT $6`,
      params,
    );
    return rows.reverse().map((r) => ({ time: Number(r.ms), spread: Number(r.spread) }));
  }
}

/** PostgreSQL returns COUNT as a string, PGlite as a number: converted here, once. */
function statsRowOf(row: Record<string, unknown>): StatsRow {
  const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));
  return {
    samples: num(row.samples) ?? 0,
    samplesAbove: num(row.above) ?? 0,
    msAbove: num(row.ms_above) ?? 0,
    windows: num(row.windows) ?? 0,
    maxSpread: num(row.max),
    avgSpread: num(row.avg),
    p50Spread: num(row.p50),
    p90Spread: num(row.p90),
    firstSampleAt: date(row.first),
    lastSampleAt: date(row.last),
  };
}

const UPDATE_SET = COLUMNS.filter((c) => !KEY.includes(c))
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

async function insertChunk(manager: EntityManager, rows: readonly OpportunitySample[]): Promise<void> {
  const params: unknown[] = [];
  const tuples = rows.map((s) => {
    const base = params.length;
    params.push(
      s.ticker, s.buyExchange, s.sellExchange, s.time.toISOString(), s.buyPrice, s.sellPrice, s.grossSpreadPercent,
      s.buyFeePercent, s.sellFeePercent, s.withdrawalFee, s.withdrawalFeeUsd, s.feesEstimated, s.executable, s.volume24h,
    );
    return `(${COLUMNS.map((_, j) => `$${base + j + 1}`).join(', ')})`;
  });
  await manager.query(
    `INSERT INTO opportunity_history (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
     ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${UPDATE_SET}`,
    params,
  );
}

const SLICE_MS = 86_400_000;

/** The look-back [from, to] as consecutive one-day slices [start, end), the last one closed. */
function sliceRange(range: TimeRange): Slice[] {
  const slices: Slice[] = [];
  for (let start = range.from.getTime(); ; start += SLICE_MS) {
    const end = Math.min(start + SLICE_MS, range.to.getTime());
    const last = end === range.to.getTime();
    slices.push({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), endInclusive: last });
    if (last) return slices;
  }
}

/** Asks a chain for its next page now, so the read runs while the caller walks what it has. */
function started<T>(chain: AsyncGenerator<T> | undefined): Promise<IteratorResult<T>> | undefined {
  return chain && readAhead(chain.next());
}
