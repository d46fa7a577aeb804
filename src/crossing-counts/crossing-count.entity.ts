import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One crossing-count record (rules: crossing-counts), identified by (processing_date, ticker, exchange).
 * Written only by CrossingCountRepository's upsert; the table comes from its migration.
 */
@Entity({ name: 'crossing_counts' })
export class CrossingCountEntity {
  @PrimaryColumn({ name: 'processing_date', type: 'date' })
  processingDate: string;

  @PrimaryColumn({ type: 'text' })
  ticker: string;

  @PrimaryColumn({ type: 'text' })
  exchange: string;

  @Column({ name: 'crossing_count', type: 'integer' })
  crossingCount: number;

  /** How many samples the count was taken over: tells a partial day from a quiet one. */
  @Column({ type: 'integer' })
  samples: number;

  @Column({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
