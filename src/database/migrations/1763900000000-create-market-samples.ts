import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spot/futures samples (rules: recorders). About 26 million rows a day at the defaults (300 symbols x 5
 * exchanges every 5 s), so the table is partitioned by UTC day: retention drops whole
 * partitions instead of deleting rows, and day-range reads prune to one or two partitions.
 * The sample recorder job creates partitions ahead of time; none exist here.
 *
 * The primary key (ticker, exchange, time) is the one index: it serves "latest sample of
 * (ticker, exchange)" (backward scan) and "a day of samples per (ticker, exchange) in time
 * order", and makes a repeated insert of the same instant a no-op. A second index would cost
 * write throughput at this volume for no query we run.
 */
export class CreateMarketSamples1763900000000 implements MigrationInterface {
  name = 'CreateMarketSamples1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE market_samples (
        time timestamptz NOT NULL,
        ticker text NOT NULL,
        exchange text NOT NULL,
        spot_bid double precision NOT NULL,
        spot_ask double precision NOT NULL,
        futures_bid double precision NOT NULL,
        futures_ask double precision NOT NULL,
        funding_rate double precision,
        CONSTRAINT market_samples_pkey PRIMARY KEY (ticker, exchange, time)
      ) PARTITION BY RANGE (time)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE market_samples`);
  }
}
