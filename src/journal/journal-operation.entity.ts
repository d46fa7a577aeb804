import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const OPERATION_STATUSES = ['open', 'closed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export const STRATEGIES = ['spot_futures', 'cross_exchange', 'funding', 'other'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** One trade of the journal (rules: journal). The long leg is `quantity`, the short leg `shortQuantity`. */
@Entity({ name: 'journal_operations' })
export class JournalOperationEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  status: OperationStatus;

  @Column({ type: 'text' })
  strategy: Strategy;

  @Column({ type: 'text' })
  asset: string;

  @Column({ name: 'buy_exchange', type: 'text' })
  buyExchange: string;

  @Column({ name: 'sell_exchange', type: 'text' })
  sellExchange: string;

  @Column({ type: 'double precision' })
  quantity: number;

  @Column({ name: 'short_quantity', type: 'double precision' })
  shortQuantity: number;

  @Column({ name: 'entry_buy_price', type: 'double precision', nullable: true })
  entryBuyPrice: number | null;

  @Column({ name: 'entry_sell_price', type: 'double precision', nullable: true })
  entrySellPrice: number | null;

  @Column({ name: 'exit_buy_price', type: 'double precision', nullable: true })
  exitBuyPrice: number | null;

  @Column({ name: 'exit_sell_price', type: 'double precision', nullable: true })
  exitSellPrice: number | null;

  @Column({ name: 'trading_fees', type: 'double precision' })
  tradingFees: number;

  @Column({ name: 'withdrawal_fees', type: 'double precision' })
  withdrawalFees: number;

  @Column({ type: 'double precision' })
  funding: number;

  @Column({ name: 'fees_estimated', type: 'boolean' })
  feesEstimated: boolean;

  /** Written from the PnL engine on every write (null while open); the summary sums them. */
  @Column({ name: 'gross_pnl', type: 'double precision', nullable: true })
  grossPnl: number | null;

  @Column({ name: 'net_pnl', type: 'double precision', nullable: true })
  netPnl: number | null;

  @Column({ name: 'opened_at', type: 'timestamptz' })
  openedAt: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ type: 'text' })
  source: string;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId: string | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** What an operation's API and CSV forms are built from: the results are computed, not read. */
export type StoredOperation = Omit<JournalOperationEntity, 'createdAt' | 'updatedAt' | 'grossPnl' | 'netPnl'>;

/** The stored fields a client controls: everything but identity, owner and bookkeeping. */
export type OperationFields = Omit<JournalOperationEntity, 'id' | 'email' | 'createdAt' | 'updatedAt' | 'grossPnl' | 'netPnl'>;
