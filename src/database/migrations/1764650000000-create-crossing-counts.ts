import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Crossing-count records (rules: crossing-counts). The primary key is the record's identity
 * (processing_date, ticker, exchange), so the job's upsert can never duplicate a record, and its
 * leading date column serves the read endpoint's date-range sums.
 */
export class CreateCrossingCounts1764650000000 implements MigrationInterface {
  name = 'CreateCrossingCounts1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE crossing_counts (
        processing_date date NOT NULL,
        ticker text NOT NULL,
        exchange text NOT NULL,
        crossing_count integer NOT NULL CHECK (crossing_count >= 0),
        samples integer NOT NULL CHECK (samples >= 0),
        processed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT crossing_counts_pkey PRIMARY KEY (processing_date, ticker, exchange)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE crossing_counts`);
  }
}
