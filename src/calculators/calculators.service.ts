import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type Observable, Subject } from 'rxjs';
import type { Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error.js';
import { CalculatorEntity } from './calculator.entity.js';
import { CalculatorMarketData } from './calculator-market-data.service.js';
import { MARKET_DATA_NOT_FOUND } from '../common/sse/market-data-missing.js';
import { CALCULATOR_NOT_FOUND } from './calculators.constants.js';
import { CalculatorDto } from './dto/calculator.dto.js';
import { CalculatorPnlDto } from './dto/calculator-pnl.dto.js';
import type { CalculatorPositionDto } from './dto/calculator-position.dto.js';
import type { SaveCalculatorDto } from './dto/save-calculator.dto.js';
import { computePnl, entryFigures } from './pnl.engine.js';

/** A saved or removed entry, so open streams of that (email, ticker) follow it at once. */
export interface CalculatorChange {
  email: string;
  ticker: string;
  /** null: the entry was deleted. */
  entry: CalculatorEntity | null;
}

interface CalculatorRow {
  id: string;
  email: string;
  ticker: string;
  entry_spot_value: number | string;
  entry_short_value: number | string;
  entry_spot_qty: number | string;
  entry_futures_qty: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const UPSERT = `
  INSERT INTO calculators (email, ticker, entry_spot_value, entry_short_value, entry_spot_qty, entry_futures_qty)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT ON CONSTRAINT calculators_email_ticker_key DO UPDATE SET
    entry_spot_value = EXCLUDED.entry_spot_value,
    entry_short_value = EXCLUDED.entry_short_value,
    entry_spot_qty = EXCLUDED.entry_spot_qty,
    entry_futures_qty = EXCLUDED.entry_futures_qty,
    updated_at = now()
  RETURNING *`;

@Injectable()
export class CalculatorsService {
  private readonly changes = new Subject<CalculatorChange>();
  readonly changes$: Observable<CalculatorChange> = this.changes.asObservable();

  constructor(
    @InjectRepository(CalculatorEntity) private readonly calculators: Repository<CalculatorEntity>,
    private readonly marketData: CalculatorMarketData,
  ) {}

  /**
   * The `calculator` rule and the `quotes` rule: one statement decided by the unique (email, ticker) constraint, so
   * concurrent saves of one pair end as one row; a repeat keeps the id and creation time.
   */
  async save(dto: SaveCalculatorDto): Promise<CalculatorDto> {
    // Out-of-range totals are a 400 before anything is stored (README "Money and percent figures").
    entryFigures(dto);
    const params = [dto.email, dto.ticker, dto.entrySpotValue, dto.entryShortValue, dto.entrySpotQty, dto.entryFuturesQty];
    const rows: CalculatorRow[] = await this.calculators.query(UPSERT, params);
    const row = rows[0];
    if (!row) throw new Error('calculator upsert returned no row');
    const entry = toEntity(row);
    this.changes.next({ email: entry.email, ticker: entry.ticker, entry });
    return CalculatorDto.from(entry);
  }

  async list(email: string): Promise<CalculatorDto[]> {
    const rows = await this.calculators.find({ where: { email }, order: { createdAt: 'DESC', id: 'ASC' } });
    return rows.map((row) => CalculatorDto.from(row));
  }

  async remove(id: string, email: string): Promise<void> {
    const entry = await this.calculators.findOneBy({ id, email });
    const result = entry ? await this.calculators.delete({ id, email }) : null;
    if (!entry || !result?.affected) throw AppError.notFound(CALCULATOR_NOT_FOUND);
    this.changes.next({ email, ticker: entry.ticker, entry: null });
  }

  /** The saved entry of (email, ticker), or 404 `calculator not found`. */
  async getEntry(email: string, ticker: string): Promise<CalculatorEntity> {
    const entry = await this.calculators.findOneBy({ email, ticker });
    if (!entry) throw AppError.notFound(CALCULATOR_NOT_FOUND);
    return entry;
  }

  /** The `calculator` rule process: the entry first (its 404 wins), then market data (rules: quotes), then the PNL. */
  async process(dto: CalculatorPositionDto): Promise<CalculatorPnlDto> {
    const entry = await this.getEntry(dto.email, dto.ticker);
    const market = await this.marketData.forProcess(entry.ticker, dto.exchange);
    if (!market) throw AppError.notFound(MARKET_DATA_NOT_FOUND);
    return CalculatorPnlDto.from(entry, dto.exchange, entry, computePnl(entry, market), market.at);
  }
}

function toEntity(row: CalculatorRow): CalculatorEntity {
  const entity = new CalculatorEntity();
  entity.id = row.id;
  entity.email = row.email;
  entity.ticker = row.ticker;
  entity.entrySpotValue = Number(row.entry_spot_value);
  entity.entryShortValue = Number(row.entry_short_value);
  entity.entrySpotQty = Number(row.entry_spot_qty);
  entity.entryFuturesQty = Number(row.entry_futures_qty);
  entity.createdAt = new Date(row.created_at);
  entity.updatedAt = new Date(row.updated_at);
  return entity;
}
