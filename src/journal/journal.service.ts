import { takeTurn } from '../common/async/turns.js';
import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import type { CreateOperationDto } from './dto/create-operation.dto.js';
import type { JournalSummaryDto } from './dto/journal-summary.dto.js';
import { OperationDto, type OperationPageDto } from './dto/operation.dto.js';
import type { ListOperationsQueryDto, SummaryQueryDto } from './dto/operation-query.dto.js';
import type { UpdateOperationDto } from './dto/update-operation.dto.js';
import { TradeMetricsDto } from '../common/trade-metrics/trade-metrics.dto.js';
import { journalMetrics } from './journal-metrics.engine.js';
import { breakdownOfDays, summarizeTallies } from './journal-summary.engine.js';
import type { JournalOperationEntity, OperationFields } from './journal-operation.entity.js';
import { JournalRepository } from './journal.repository.js';
import { checkOperationInput, fieldsOf, inputOf, type InputResult } from './operation-input.js';

export const OPERATION_NOT_FOUND = 'operation not found';
export const EXTERNAL_ID_TAKEN = 'an operation with this externalId already exists for this source';

/** Operations of the journal (rules: journal) and their summary (rules: journal). */
@Injectable()
export class JournalService {
  constructor(private readonly operations: JournalRepository) {}

  async create(dto: CreateOperationDto): Promise<OperationDto> {
    const fields = orThrow(fieldsOf(dto));
    return OperationDto.from(await this.saving(() => this.operations.insert(dto.email, fields)));
  }

  async list(query: ListOperationsQueryDto): Promise<OperationPageDto> {
    const [rows, total] = await this.operations.list(query.email, query, query.limit ?? 100, query.offset ?? 0);
    // Up to 500 rows to convert and serialise: a turn of its own, not the poll that brought the rows.
    if (rows.length > 0) await takeTurn();
    return { data: rows.map((row) => OperationDto.from(row)), total };
  }

  async get(id: string, email: string): Promise<OperationDto> {
    return OperationDto.from(await this.owned(id, email));
  }

  /**
   * Applies the present members onto the stored operation and checks the result as a whole:
   * setting closedAt closes it (its legs then need exit prices); a closed one stays closed.
   */
  async update(id: string, email: string, patch: UpdateOperationDto): Promise<OperationDto> {
    const current = await this.owned(id, email);
    if (current.status === 'closed' && patch.closedAt === null) {
      throw AppError.invalid('closedAt cannot be removed from a closed operation');
    }
    const present = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const fields = orThrow(checkOperationInput({ ...inputOf(current), ...present, email }));
    return OperationDto.from(await this.saving(() => this.operations.save(Object.assign(current, fields))));
  }

  async remove(id: string, email: string): Promise<void> {
    if (!(await this.operations.deleteOwned(id, email))) throw AppError.notFound(OPERATION_NOT_FOUND);
  }

  async summary(query: SummaryQueryDto, now: Date = new Date()): Promise<JournalSummaryDto> {
    const to = query.to ?? now;
    if (query.from && to <= query.from) throw AppError.invalid('to must be after from');
    const groupFilters = { strategy: query.strategy, asset: query.asset, source: query.source };
    const filters = { ...groupFilters, from: query.from, to };
    const wantMetrics = query.metrics === 'true';
    const [openOperations, tallies, closed] = await Promise.all([
      this.operations.countOpen(query.email, groupFilters),
      this.operations.summaryTallies(query.email, filters),
      wantMetrics ? this.operations.closedOperations(query.email, filters) : Promise.resolve(null),
    ]);
    const range = { from: query.from?.getTime() ?? null, to: to.getTime(), now: now.getTime(), capital: query.capital };
    // The tallies, the breakdown and the metrics are CPU work in decimal: one such job per turn of
    // the event loop, so that many summaries answered at once by the database do not hold /health
    // and the streams between them.
    await takeTurn();
    return {
      ...summarizeTallies(tallies, openOperations),
      breakdown: breakdownOfDays(tallies.days, query.breakdown ?? 'day'),
      metrics: closed ? TradeMetricsDto.from(journalMetrics(closed, range)) : null,
    };
  }

  private async owned(id: string, email: string): Promise<JournalOperationEntity> {
    const found = await this.operations.findOwned(id, email);
    if (!found) throw AppError.notFound(OPERATION_NOT_FOUND);
    return found;
  }

  /** The unique (email, source, externalId) index decides, so concurrent writers get a 409. */
  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.conflict(EXTERNAL_ID_TAKEN);
      throw err;
    }
  }
}

function orThrow(result: InputResult): OperationFields {
  if (!result.ok) throw AppError.invalid(result.message);
  return result.fields;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.driverError?.code === '23505';
}
