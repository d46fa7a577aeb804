import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Route episodes: one row per time a spot route's gross spread rose above the live
 * threshold and fell back. The primary key serves the lifetimes query (`route = … AND
 * opened_at >= …`) and makes a re-stored episode one row. Lifetime is stored, not derived, so
 * the percentiles read one column.
 */
export class CreateRouteEpisodes1764821000000 implements MigrationInterface {
  name = 'CreateRouteEpisodes1764821000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE route_episodes (
        ticker text NOT NULL,
        buy_exchange text NOT NULL,
        sell_exchange text NOT NULL,
        opened_at timestamptz NOT NULL,
        closed_at timestamptz NOT NULL,
        lifetime_ms bigint NOT NULL CHECK (lifetime_ms >= 0),
        peak_gross_percent double precision NOT NULL,
        peak_net_percent double precision NOT NULL,
        transferable boolean NOT NULL,
        costs_estimated boolean NOT NULL,
        CONSTRAINT route_episodes_pkey PRIMARY KEY (ticker, buy_exchange, sell_exchange, opened_at)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE route_episodes`);
  }
}
