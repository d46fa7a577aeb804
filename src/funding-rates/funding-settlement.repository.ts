import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One settled payment as stored. */
export interface StoredSettlement {
  exchange: string;
  ticker: string;
  settledAt: number;
  rate: number;
  intervalHours: number;
  markPrice: number | null;
}

export type SettlementSource = 'venue' | 'observed';

export interface IntervalChange {
  exchange: string;
  ticker: string;
  changedAt: number;
  fromHours: number;
  toHours: number;
}

interface Row {
  exchange: string;
  ticker: string;
  settled_at: Date;
  rate: string;
  interval_hours: string;
  mark_price: string | null;
}

const PARAMS_PER_ROW = 7;
/** Well under PostgreSQL's 65,535 bound parameters per statement. */
const ROWS_PER_INSERT = 2_000;

function toSettlement(r: Row): StoredSettlement {
  return {
    exchange: r.exchange, ticker: r.ticker, settledAt: new Date(r.settled_at).getTime(), rate: Number(r.rate),
    intervalHours: Number(r.interval_hours), markPrice: r.mark_price === null ? null : Number(r.mark_price),
  };
}

const COLUMNS = 'exchange, ticker, settled_at, rate, interval_hours, mark_price, source';

/**
 * funding_settlements and funding_interval_changes. Numeric columns come back from PostgreSQL
 * as strings: converted here, once.
 */
@Injectable()
export class FundingSettlementRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Stores payments, chunked. A venue's row replaces whatever was stored for the same payment
   * (it states what was actually paid); an observed row never replaces a stored one.
   */
  async save(rows: readonly StoredSettlement[], source: SettlementSource): Promise<void> {
    const conflict = source === 'venue'
      ? `DO UPDATE SET rate = excluded.rate, interval_hours = excluded.interval_hours,
           mark_price = COALESCE(excluded.mark_price, funding_settlements.mark_price), source = 'venue'`
      : 'DO NOTHING';
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const part = rows.slice(start, start + ROWS_PER_INSERT);
      const values: unknown[] = [];
      const tuples = part.map((s, i) => {
        values.push(s.exchange, s.ticker, new Date(s.settledAt), String(s.rate), String(s.intervalHours), s.markPrice === null ? null : String(s.markPrice), source);
        const o = i * PARAMS_PER_ROW;
        return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7})`;
      });
      await this.db.query(
        `INSERT INTO funding_settlements (${COLUMNS}) VALUES ${tuples.join(', ')}
         ON CONFLICT (exchange, ticker, settled_at) ${conflict}`,
        values,
      );
    }
  }

  /** Every payment after `from` (Unix ms), by perpetual then time: what the in-memory cache starts from. */
  async after(from: number): Promise<StoredSettlement[]> {
    const rows: Row[] = await this.db.query(
      `SELECT exchange, ticker, settled_at, rate, interval_hours, mark_price FROM funding_settlements
       WHERE settled_at > $1 ORDER BY exchange, ticker, settled_at`,
      [new Date(from)],
    );
    return rows.map(toSettlement);
  }

  /** One coin's payments after `from`, on one exchange or all, oldest first (exchange breaks ties). */
  async history(ticker: string, exchange: string | null, from: number): Promise<StoredSettlement[]> {
    const rows: Row[] = await this.db.query(
      `SELECT exchange, ticker, settled_at, rate, interval_hours, mark_price FROM funding_settlements
       WHERE ticker = $1 AND ($2::text IS NULL OR exchange = $2) AND settled_at > $3
       ORDER BY settled_at, exchange`,
      [ticker, exchange, new Date(from)],
    );
    return rows.map(toSettlement);
  }

  async recordIntervalChange(c: IntervalChange): Promise<void> {
    await this.db.query(
      `INSERT INTO funding_interval_changes (exchange, ticker, changed_at, from_hours, to_hours)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [c.exchange, c.ticker, new Date(c.changedAt), String(c.fromHours), String(c.toHours)],
    );
  }

  /** The latest interval change of every perpetual that has one. */
  async latestIntervalChanges(): Promise<IntervalChange[]> {
    const rows: { exchange: string; ticker: string; changed_at: Date; from_hours: string; to_hours: string }[] = await this.db.query(
      `SELECT DISTINCT ON (exchange, ticker) exchange, ticker, changed_at, from_hours, to_hours
       FROM funding_interval_changes ORDER BY exchange, ticker, changed_at DESC`,
    );
    return rows.map((r) => ({
      exchange: r.exchange, ticker: r.ticker, changedAt: new Date(r.changed_at).getTime(), fromHours: Number(r.from_hours), toHours: Number(r.to_hours),
    }));
  }

  /**
   * Retention: deletes payments older than `cutoff`; returns how many. Interval changes are kept
   * (one row per change, a handful per perpetual): an old change still dates the current interval.
   */
  async deleteBefore(cutoff: number): Promise<number> {
    const rows: { n: string }[] = await this.db.query(
      `WITH deleted AS (DELETE FROM funding_settlements WHERE settled_at < $1 RETURNING 1) SELECT count(*) AS n FROM deleted`,
      [new Date(cutoff)],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
