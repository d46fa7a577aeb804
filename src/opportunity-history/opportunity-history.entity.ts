import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The opportunity_history table (migration 1764500000000). Reads and writes go through
 * OpportunityHistoryRepository's SQL (batched upserts, keyset pages); the entity declares the
 * table to TypeORM for this module.
 */
@Entity({ name: 'opportunity_history' })
export class OpportunityHistoryEntity {
  @PrimaryColumn({ type: 'text' })
  ticker: string;

  @PrimaryColumn({ name: 'buy_exchange', type: 'text' })
  buyExchange: string;

  @PrimaryColumn({ name: 'sell_exchange', type: 'text' })
  sellExchange: string;

  @PrimaryColumn({ type: 'timestamptz' })
  time: Date;

  @Column({ name: 'buy_price', type: 'double precision' })
  buyPrice: number;

  @Column({ name: 'sell_price', type: 'double precision' })
  sellPrice: number;

  @Column({ name: 'gross_spread_percent', type: 'double precision' })
  grossSpreadPercent: number;

  @Column({ name: 'buy_fee_percent', type: 'double precision' })
  buyFeePercent: number;

  @Column({ name: 'sell_fee_percent', type: 'double precision' })
  sellFeePercent: number;

  @Column({ name: 'withdrawal_fee', type: 'double precision' })
  withdrawalFee: number;

  @Column({ name: 'withdrawal_fee_usd', type: 'double precision' })
  withdrawalFeeUsd: number;

  @Column({ name: 'fees_estimated', type: 'boolean' })
  feesEstimated: boolean;

  @Column({ type: 'boolean' })
  executable: boolean;

  @Column({ name: 'volume_24h', type: 'double precision', nullable: true })
  volume24h: number | null;
}
