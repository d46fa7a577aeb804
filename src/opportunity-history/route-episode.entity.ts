import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The route_episodes table (migration 1764821000000). Reads and writes go through
 * RouteEpisodeRepository's SQL; the entity declares the table to TypeORM for this module.
 */
@Entity({ name: 'route_episodes' })
export class RouteEpisodeEntity {
  @PrimaryColumn({ type: 'text' })
  ticker: string;

  @PrimaryColumn({ name: 'buy_exchange', type: 'text' })
  buyExchange: string;

  @PrimaryColumn({ name: 'sell_exchange', type: 'text' })
  sellExchange: string;

  @PrimaryColumn({ name: 'opened_at', type: 'timestamptz' })
  openedAt: Date;

  @Column({ name: 'closed_at', type: 'timestamptz' })
  closedAt: Date;

  @Column({ name: 'lifetime_ms', type: 'bigint' })
  lifetimeMs: string;

  @Column({ name: 'peak_gross_percent', type: 'double precision' })
  peakGrossPercent: number;

  @Column({ name: 'peak_net_percent', type: 'double precision' })
  peakNetPercent: number;

  @Column({ type: 'boolean' })
  transferable: boolean;

  @Column({ name: 'peak_max_size_usdt', type: 'double precision', nullable: true })
  peakMaxSizeUsdt: number | null;

  @Column({ name: 'costs_estimated', type: 'boolean' })
  costsEstimated: boolean;
}
