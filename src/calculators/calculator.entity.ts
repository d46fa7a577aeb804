import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** double precision comes back from both drivers as a number, but be explicit about it. */
const float = { to: (v: number): number => v, from: (v: number | string): number => Number(v) };

@Entity({ name: 'calculators' })
export class CalculatorEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  email: string;

  /** Canonical `BASE-QUOTE` (rules: tickers). */
  @Column({ type: 'text' })
  ticker: string;

  @Column({ name: 'entry_spot_value', type: 'double precision', transformer: float })
  entrySpotValue: number;

  @Column({ name: 'entry_short_value', type: 'double precision', transformer: float })
  entryShortValue: number;

  @Column({ name: 'entry_spot_qty', type: 'double precision', transformer: float })
  entrySpotQty: number;

  @Column({ name: 'entry_futures_qty', type: 'double precision', transformer: float })
  entryFuturesQty: number;

  /** Kept by every later save (rules: quotes): the entry's `timestamp`. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
