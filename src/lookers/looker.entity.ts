import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ExchangeName, Market } from '../market-model/exchanges.js';

/** A user's watchlist (rules: lookers): up to six cryptos watched on one exchange and market. */
@Entity({ name: 'lookers' })
export class LookerEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** `BASEQUOTE` (rules: tickers), in the order sent, without duplicates. */
  @Column({ type: 'text', array: true })
  cryptos: string[];

  @Column({ type: 'text' })
  exchange: ExchangeName;

  @Column({ type: 'text' })
  market: Market;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
