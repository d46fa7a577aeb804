import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface MarketSample {
  time: Date;
  ticker: string;
  exchange: string;
  spotBid: number;
  spotAsk: number;
  futuresBid: number;
  futuresAsk: number;
  fundingRate: number | null;
}

interface SampleRow {
  time: Date;
  ticker: string;
  exchange: string;
  spot_bid: number;
  spot_ask: number;
  futures_bid: number;
  futures_ask: number;
  funding_rate: number | null;
}

const COLUMNS = 'time, ticker, exchange, spot_bid, spot_ask, futures_bid, futures_ask, funding_rate';
const PARAMS_PER_ROW = 8;
/** PostgreSQL binds at most 65,535 parameters per statement. */
export const MAX_PARAMS = 65_535;
export const ROWS_PER_INSERT = Math.floor(MAX_PARAMS / PARAMS_PER_ROW);
const DAY_MS = 86_400_000;
const PARTITION = /^market_samples_p(\d{4})(\d{2})(\d{2})$/;

export function partitionName(dayStart: Date): string {
  return `market_samples_p${dayStart.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

export function utcDayStart(time: number): Date {
  return new Date(Math.floor(time / DAY_MS) * DAY_MS);
}

function toSample(r: SampleRow): MarketSample {
  return {
    time: new Date(r.time),
    ticker: r.ticker,
    exchange: r.exchange,
    spotBid: Number(r.spot_bid),
    spotAsk: Number(r.spot_ask),
    futuresBid: Number(r.futures_bid),
    futuresAsk: Number(r.futures_ask),
    fundingRate: r.funding_rate === null ? null : Number(r.funding_rate),
  };
}

/** The prices of one sample without its funding rate, as the crossing-count job reads them. */
export interface SamplePricesRow {
  ticker: string;
  exchange: string;
  /** PostgreSQL's own text of the timestamptz: the page's keyset bound round-trips exactly. */
  time: string;
  spotBid: number;
  spotAsk: number;
  futuresBid: number;
  futuresAsk: number;
}

interface PricesRow {
  ticker: string;
  exchange: string;
  time_text: string;
  spot_bid: number;
  spot_ask: number;
  futures_bid: number;
  futures_ask: number;
}

/** market_samples (D8): partition upkeep, chunked bulk inserts and the two read paths. */
@Injectable()
export class MarketSampleRepository {
  constructor(private readonly db: DataSource) {}

  /** Creates the UTC-day partitions covering [day of `from`, + `days`) that are missing. */
  async ensurePartitions(from: number, days: number): Promise<string[]> {
    const created: string[] = [];
    for (let i = 0; i < days; i++) {
      const start = utcDayStart(from + i * DAY_MS);
      const name = partitionName(start);
      const end = new Date(start.getTime() + DAY_MS);
      const result: unknown[] = await this.db.query(`SELECT 1 FROM pg_class WHERE relname = $1`, [name]);
      if (result.length > 0) continue;
      await this.db.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF market_samples
         FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`,
      );
      created.push(name);
    }
    return created;
  }

  async partitions(): Promise<string[]> {
    const rows: { name: string }[] = await this.db.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'market_samples'::regclass ORDER BY c.relname`,
    );
    return rows.map((r) => r.name);
  }

  /** Retention without DELETE: drops every day partition that ends at or before `cutoff`. */
  async dropPartitionsBefore(cutoff: number): Promise<string[]> {
    const dropped: string[] = [];
    for (const name of await this.partitions()) {
      const m = PARTITION.exec(name);
      if (!m) continue;
      const dayEnd = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + DAY_MS;
      if (dayEnd > cutoff) continue;
      await this.db.query(`DROP TABLE IF EXISTS ${name}`);
      dropped.push(name);
    }
    return dropped;
  }

  /** Multi-row inserts, chunked under the parameter limit; a repeated (ticker, exchange, time) is skipped. */
  async insert(samples: readonly MarketSample[], rowsPerStatement = ROWS_PER_INSERT): Promise<void> {
    for (let start = 0; start < samples.length; start += rowsPerStatement) {
      const part = samples.slice(start, start + rowsPerStatement);
      const values: unknown[] = [];
      const tuples = part.map((s, i) => {
        values.push(s.time, s.ticker, s.exchange, s.spotBid, s.spotAsk, s.futuresBid, s.futuresAsk, s.fundingRate);
        const o = i * PARAMS_PER_ROW;
        return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8})`;
      });
      await this.db.query(
        `INSERT INTO market_samples (${COLUMNS}) VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING`,
        values,
      );
    }
  }

  /** The newest sample of (ticker, exchange) not older than `notOlderThan`, or null (D5). */
  async latestSample(ticker: string, exchange: string, notOlderThan: Date): Promise<MarketSample | null> {
    const rows: SampleRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM market_samples
       WHERE ticker = $1 AND exchange = $2 AND time >= $3 ORDER BY time DESC LIMIT 1`,
      [ticker, exchange, notOlderThan],
    );
    return rows[0] ? toSample(rows[0]) : null;
  }

  /**
   * Samples with time in [from, to), ordered by (ticker, exchange, time), in keyset pages: a day
   * is ~26 M rows, so it is never held in memory at once, and each page is one index range scan.
   */
  async *samplesBetween(from: Date, to: Date, pageSize = 10_000): AsyncGenerator<MarketSample[]> {
    let after: [string, string, Date] | null = null;
    for (;;) {
      const keyset = after ? 'AND (ticker, exchange, time) > ($4, $5, $6)' : '';
      const rows: SampleRow[] = await this.db.query(
        `SELECT ${COLUMNS} FROM market_samples WHERE time >= $1 AND time < $2 ${keyset}
         ORDER BY ticker, exchange, time LIMIT $3`,
        after ? [from, to, pageSize, ...after] : [from, to, pageSize],
      );
      if (rows.length === 0) return;
      const page = rows.map(toSample);
      yield page;
      if (rows.length < pageSize) return;
      const last = page[page.length - 1];
      after = [last.ticker, last.exchange, last.time];
    }
  }

  /** The same stream regrouped: one (ticker, exchange) group at a time, in time order. */
  async *samplesBetweenByGroup(
    from: Date,
    to: Date,
    pageSize = 10_000,
  ): AsyncGenerator<{ ticker: string; exchange: string; samples: MarketSample[] }> {
    let group: { ticker: string; exchange: string; samples: MarketSample[] } | null = null;
    for await (const page of this.samplesBetween(from, to, pageSize)) {
      for (const s of page) {
        if (group && (group.ticker !== s.ticker || group.exchange !== s.exchange)) {
          yield group;
          group = null;
        }
        group ??= { ticker: s.ticker, exchange: s.exchange, samples: [] };
        group.samples.push(s);
      }
    }
    if (group) yield group;
  }

  /**
   * Added for the crossing-count job (src/crossing-counts): the same (ticker, exchange, time)
   * keyset walk as samplesBetween, narrowed to what a day-long scan needs. Time comes back as
   * text (no Date per row) and the next page is requested before the current one is handed
   * over, so the database reads while the caller counts. Memory is two pages, whatever the day.
   */
  async *pricesBetween(from: Date, to: Date, pageSize = 20_000): AsyncGenerator<SamplePricesRow[]> {
    const fetchPage = async (after: PricesRow | null): Promise<PricesRow[]> =>
      this.db.query(
        // The text column has its own name: ORDER BY `time` must mean the timestamptz (the index
        // order), not an output column's text.
        `SELECT ticker, exchange, time::text AS time_text, spot_bid, spot_ask, futures_bid, futures_ask
         FROM market_samples WHERE time >= $1 AND time < $2
         ${after ? 'AND (ticker, exchange, time) > ($4, $5, $6::timestamptz)' : ''}
         ORDER BY ticker, exchange, time LIMIT $3`,
        after ? [from, to, pageSize, after.ticker, after.exchange, after.time_text] : [from, to, pageSize],
      );
    let next: Promise<PricesRow[]> | null = fetchPage(null);
    while (next) {
      const rows: PricesRow[] = await next;
      next = rows.length === pageSize ? fetchPage(rows[rows.length - 1]) : null;
      // A consumer that stops early must not leave the prefetch's rejection unhandled.
      next?.catch(() => undefined);
      if (rows.length === 0) return;
      yield rows.map((r) => ({
        ticker: r.ticker,
        exchange: r.exchange,
        time: r.time_text,
        spotBid: Number(r.spot_bid),
        spotAsk: Number(r.spot_ask),
        futuresBid: Number(r.futures_bid),
        futuresAsk: Number(r.futures_ask),
      }));
    }
  }
}
