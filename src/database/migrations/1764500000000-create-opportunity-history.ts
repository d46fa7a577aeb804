import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The opportunity history of the `recorders` rule: one row per spot route (ticker, buy, sell) and sample time.
 * The primary key is both the idempotency rule of the import (same route and time → one row)
 * and the index that serves the stats and backtest range scans `route = … AND time >= …
 * ORDER BY time`, so no second index is needed.
 */
export class CreateOpportunityHistory1764500000000 implements MigrationInterface {
  name = 'CreateOpportunityHistory1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE opportunity_history (
        ticker text NOT NULL,
        buy_exchange text NOT NULL,
        sell_exchange text NOT NULL,
        time timestamptz NOT NULL,
        buy_price double precision NOT NULL,
        sell_price double precision NOT NULL,
        gross_spread_percent double precision NOT NULL,
        buy_fee_percent double precision NOT NULL,
        sell_fee_percent double precision NOT NULL,
        withdrawal_fee double precision NOT NULL,
        withdrawal_fee_usd double precision NOT NULL,
        fees_estimated boolean NOT NULL,
        executable boolean NOT NULL,
        volume_24h double precision,
        CONSTRAINT opportunity_history_pkey PRIMARY KEY (ticker, buy_exchange, sell_exchange, time)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE opportunity_history`);
  }
}
