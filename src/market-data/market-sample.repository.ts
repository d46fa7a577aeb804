import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readAhead } from '../common/async/read-ahead.js';
import { errorFields } from '../common/logging/json-logger.js';

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

/** market_samples (rules: recorders): partition upkeep, chunked bulk inserts, the latest sample and the day read by group. */
@Injectable()
export class MarketSampleRepository {
  private readonly logger = new Logger('MarketSamples');

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

  /** The newest sample of (ticker, exchange) not older than `notOlderThan`, or null (rules: quotes). */
  async latestSample(ticker: string, exchange: string, notOlderThan: Date): Promise<MarketSample | null> {
    const rows: SampleRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM market_samples
       WHERE ticker = $1 AND exchange = $2 AND time >= $3 ORDER BY time DESC LIMIT 1`,
      [ticker, exchange, notOlderThan],
    );
    return rows[0] ? toSample(rows[0]) : null;
  }

  /**
   * For the crossing-count job (src/crossing-counts): every (ticker, exchange) group with samples
   * in [from, to), one group at a time, its prices oldest first. A group arrives as ONE packed
   * value (a day of one pair at 5 s is 17,280 samples, 690 KB), read by an index-only scan of the
   * covering primary key; the next groups are already being read (two connections on
   * PostgreSQL) while the caller counts. Memory is a few groups, whatever the day.
   */
  async *groupPricesBetween(from: Date, to: Date): AsyncGenerator<GroupPrices> {
    await this.vacuumPartitions(from, to);
    const groups = await this.groupsBetween(from, to);
    const read = (g: SampleGroup): Promise<GroupPrices> => readAhead(this.groupPrices(g, from, to));
    const reading = groups.slice(0, GROUPS_READ_AHEAD).map(read);
    for (let next = GROUPS_READ_AHEAD, current = reading.shift(); current; current = reading.shift()) {
      const group = groups[next++];
      if (group) reading.push(read(group));
      yield await current;
    }
  }

  /**
   * An index-only scan skips the heap only for pages the visibility map marks all-visible;
   * autovacuum leaves up to a fifth of an insert-only table unmarked. VACUUM marks them (reading
   * just those pages) without blocking the recorder's inserts. A failure only costs speed.
   */
  private async vacuumPartitions(from: Date, to: Date): Promise<void> {
    const existing = new Set(await this.partitions());
    for (let day = utcDayStart(from.getTime()).getTime(); day < to.getTime(); day += DAY_MS) {
      const name = partitionName(new Date(day));
      if (!existing.has(name)) continue;
      await this.db.query(`VACUUM ${name}`).catch((err: unknown) => {
        this.logger.warn({ msg: 'VACUUM failed, the read falls back to heap fetches', table: name, error: errorFields(err) });
      });
    }
  }

  /** The groups with samples in [from, to): a skip scan of the primary key, one probe per group. */
  private async groupsBetween(from: Date, to: Date): Promise<SampleGroup[]> {
    return this.db.query(
      `WITH RECURSIVE g AS (
         (SELECT ticker, exchange FROM market_samples WHERE time >= $1 AND time < $2 ORDER BY ticker, exchange LIMIT 1)
         UNION ALL
         SELECT n.* FROM g, LATERAL (
           SELECT ticker, exchange FROM market_samples
            WHERE (ticker, exchange) > (g.ticker, g.exchange) AND time >= $1 AND time < $2
            ORDER BY ticker, exchange LIMIT 1) AS n)
       SELECT ticker, exchange FROM g`,
      [from, to],
    );
  }

  private async groupPrices(group: SampleGroup, from: Date, to: Date): Promise<GroupPrices> {
    // The aggregate reads the subquery in its ORDER BY order; an ORDER BY inside string_agg
    // would sort every group again, so unpackPrices checks the order instead.
    const rows: { packed: Uint8Array | null }[] = await this.db.query(
      `SELECT string_agg(float8send(round(date_part('epoch', time) * 1000)) || float8send(spot_bid) || float8send(spot_ask)
                         || float8send(futures_bid) || float8send(futures_ask), ''::bytea) AS packed
         FROM (SELECT time, spot_bid, spot_ask, futures_bid, futures_ask FROM market_samples
                WHERE ticker = $1 AND exchange = $2 AND time >= $3 AND time < $4 ORDER BY time) AS s`,
      [group.ticker, group.exchange, from, to],
    );
    return { ...group, ...unpackPrices(rows[0]?.packed ?? new Uint8Array(0)) };
  }
}

/** One (ticker, exchange) group's samples of a range, as groupPricesBetween hands them over. */
export interface GroupPrices extends SampleGroup {
  count: number;
  /**
   * PRICE_FIELDS numbers per sample, oldest first: time (epoch ms), spot bid, spot ask, futures
   * bid, futures ask. A typed array: no object per sample, nothing for the GC to trace.
   */
  values: Float64Array;
}

export interface SampleGroup {
  ticker: string;
  exchange: string;
}

export const PRICE_FIELDS = 5;
const PACKED_PRICE_BYTES = PRICE_FIELDS * 8;
/** Groups being read while one is counted. */
const GROUPS_READ_AHEAD = 2;

/** Big-endian float8 records (float8send) into a Float64Array, in time order. */
export function unpackPrices(bytes: Uint8Array): { count: number; values: Float64Array } {
  if (bytes.byteLength % PACKED_PRICE_BYTES !== 0) {
    throw new Error(`packed prices: ${bytes.byteLength} bytes is not a whole number of records`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(bytes.byteLength / 8);
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat64(i * 8);
  const count = values.length / PRICE_FIELDS;
  for (let i = 1; i < count; i++) {
    if (values[i * PRICE_FIELDS] < values[(i - 1) * PRICE_FIELDS]) return { count, values: sortedByTime(values, count) };
  }
  return { count, values };
}

function sortedByTime(values: Float64Array, count: number): Float64Array {
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => values[a * PRICE_FIELDS] - values[b * PRICE_FIELDS]);
  const sorted = new Float64Array(values.length);
  order.forEach((from, to) => sorted.set(values.subarray(from * PRICE_FIELDS, (from + 1) * PRICE_FIELDS), to * PRICE_FIELDS));
  return sorted;
}
