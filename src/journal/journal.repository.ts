import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { SummaryOperation } from './journal-summary.engine.js';
import { JournalOperationEntity, type OperationFields, type OperationStatus } from './journal-operation.entity.js';

export interface OperationFilters {
  status?: OperationStatus;
  strategy?: string;
  asset?: string;
  source?: string;
  /** Inclusive; applies to closedAt of closed operations and openedAt of open ones (D10). */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export interface ExportCursor {
  openedAt: Date;
  id: string;
}

/** Columns written by the import, in the order of its VALUES tuples. */
const IMPORT_COLUMNS: [keyof OperationFields, string][] = [
  ['status', 'status'],
  ['strategy', 'strategy'],
  ['asset', 'asset'],
  ['buyExchange', 'buy_exchange'],
  ['sellExchange', 'sell_exchange'],
  ['quantity', 'quantity'],
  ['shortQuantity', 'short_quantity'],
  ['entryBuyPrice', 'entry_buy_price'],
  ['entrySellPrice', 'entry_sell_price'],
  ['exitBuyPrice', 'exit_buy_price'],
  ['exitSellPrice', 'exit_sell_price'],
  ['tradingFees', 'trading_fees'],
  ['withdrawalFees', 'withdrawal_fees'],
  ['funding', 'funding'],
  ['feesEstimated', 'fees_estimated'],
  ['openedAt', 'opened_at'],
  ['closedAt', 'closed_at'],
  ['source', 'source'],
  ['externalId', 'external_id'],
  ['notes', 'notes'],
];

/** All SQL of the journal. COUNTs are converted to numbers here, once (pg gives strings). */
@Injectable()
export class JournalRepository {
  constructor(@InjectRepository(JournalOperationEntity) private readonly repo: Repository<JournalOperationEntity>) {}

  async insert(email: string, fields: OperationFields): Promise<JournalOperationEntity> {
    return this.repo.save(this.repo.create({ ...fields, email }));
  }

  findOwned(id: string, email: string): Promise<JournalOperationEntity | null> {
    return this.repo.findOneBy({ id, email });
  }

  save(entity: JournalOperationEntity): Promise<JournalOperationEntity> {
    return this.repo.save(entity);
  }

  async deleteOwned(id: string, email: string): Promise<boolean> {
    const result = await this.repo.delete({ id, email });
    return Boolean(result.affected);
  }

  async list(email: string, filters: OperationFilters, limit: number, offset: number): Promise<[JournalOperationEntity[], number]> {
    return this.filtered(email, filters)
      .orderBy('op.opened_at', 'DESC')
      .addOrderBy('op.id', 'ASC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
  }

  /** One page of the export, after `cursor` in (opened_at DESC, id) order: keyset, no OFFSET. */
  exportPage(email: string, filters: OperationFilters, cursor: ExportCursor | null, size: number): Promise<JournalOperationEntity[]> {
    const qb = this.filtered(email, filters);
    if (cursor) {
      qb.andWhere('(op.opened_at < :cursorAt OR (op.opened_at = :cursorAt AND op.id > :cursorId))', {
        cursorAt: cursor.openedAt,
        cursorId: cursor.id,
      });
    }
    return qb.orderBy('op.opened_at', 'DESC').addOrderBy('op.id', 'ASC').limit(size).getMany();
  }

  /**
   * Closed operations for the summary, in closedAt order, only the columns it reads, already in
   * the engine's shape (closedAt as epoch milliseconds: 100,000 Date objects are not needed).
   */
  async summaryOperations(email: string, filters: Omit<OperationFilters, 'status'>): Promise<SummaryOperation[]> {
    const params: unknown[] = [email];
    const where = [`email = $1`, `status = 'closed'`];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filters.from) add('closed_at >= ?', filters.from);
    if (filters.to) add('closed_at < ?', filters.to);
    if (filters.strategy) add('strategy = ?', filters.strategy);
    if (filters.asset) add('asset = ?', filters.asset);
    if (filters.source) add('source = ?', filters.source);
    return this.repo.query<SummaryOperation[]>(
      `SELECT (extract(epoch FROM closed_at) * 1000)::float8 AS "closedAt", strategy, asset,
              buy_exchange AS "buyExchange", sell_exchange AS "sellExchange", source,
              quantity, short_quantity AS "shortQuantity",
              entry_buy_price AS "entryBuyPrice", entry_sell_price AS "entrySellPrice",
              exit_buy_price AS "exitBuyPrice", exit_sell_price AS "exitSellPrice",
              trading_fees AS "tradingFees", withdrawal_fees AS "withdrawalFees", funding
         FROM journal_operations WHERE ${where.join(' AND ')} ORDER BY closed_at`,
      params,
    );
  }

  async countOpen(email: string, filters: Pick<OperationFilters, 'strategy' | 'asset' | 'source'>): Promise<number> {
    const qb = this.repo.createQueryBuilder('op').where('op.email = :email', { email }).andWhere(`op.status = 'open'`);
    this.applyGroupFilters(qb, filters);
    return qb.getCount();
  }

  /**
   * Inserts or updates (by email, source, external_id) a batch in one statement, inside the
   * caller's transaction. The batch must not repeat a (source, externalId) pair.
   */
  async upsertBatch(manager: EntityManager, email: string, rows: OperationFields[]): Promise<{ created: number; updated: number }> {
    if (rows.length === 0) return { created: 0, updated: 0 };
    const params: unknown[] = [email];
    const tuples = rows.map((row) => {
      const slots = IMPORT_COLUMNS.map(([field]) => {
        params.push(row[field]);
        return `$${params.length}`;
      });
      return `($1, ${slots.join(', ')})`;
    });
    const columns = IMPORT_COLUMNS.map(([, column]) => column);
    const result: unknown = await manager.query(
      `INSERT INTO journal_operations (email, ${columns.join(', ')}) VALUES ${tuples.join(', ')}
       ON CONFLICT (email, source, external_id) WHERE external_id IS NOT NULL
       DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      params,
    );
    const created = (result as { inserted: boolean }[]).filter((r) => r.inserted).length;
    return { created, updated: rows.length - created };
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(work);
  }

  private filtered(email: string, filters: OperationFilters): SelectQueryBuilder<JournalOperationEntity> {
    const qb = this.repo.createQueryBuilder('op').where('op.email = :email', { email });
    if (filters.status) qb.andWhere('op.status = :status', { status: filters.status });
    if (filters.from) qb.andWhere('coalesce(op.closed_at, op.opened_at) >= :from', { from: filters.from });
    if (filters.to) qb.andWhere('coalesce(op.closed_at, op.opened_at) < :to', { to: filters.to });
    this.applyGroupFilters(qb, filters);
    return qb;
  }

  private applyGroupFilters(qb: SelectQueryBuilder<JournalOperationEntity>, f: Pick<OperationFilters, 'strategy' | 'asset' | 'source'>): void {
    if (f.strategy) qb.andWhere('op.strategy = :strategy', { strategy: f.strategy });
    if (f.asset) qb.andWhere('op.asset = :asset', { asset: f.asset });
    if (f.source) qb.andWhere('op.source = :source', { source: f.source });
  }
}
