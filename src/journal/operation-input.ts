import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { firstMessage } from '../common/validation/app-validation.pipe.js';
import { FigureOutOfRangeError } from '../common/money/money.js';
import { CreateOperationDto } from './dto/create-operation.dto.js';
import { computePnl } from './journal-pnl.engine.js';
import type { JournalOperationEntity, OperationFields } from './journal-operation.entity.js';

export type InputResult = { ok: true; fields: OperationFields } | { ok: false; message: string };

/**
 * Checks a whole operation given as plain values (a PATCH merged onto the stored operation,
 * or one CSV row) with the same rules and texts as the create body.
 */
export function checkOperationInput(plain: Record<string, unknown>): InputResult {
  const dto = plainToInstance(CreateOperationDto, plain);
  const errors = validateSync(dto, { whitelist: true, validationError: { target: false, value: false } });
  if (errors.length > 0) return { ok: false, message: firstMessage(errors) };
  return fieldsOf(dto);
}

/** The stored fields of a validated input, with the `journal` rule's defaults (0, false, null, `manual`). */
export function fieldsOf(dto: CreateOperationDto): InputResult {
  const quantity = dto.quantity ?? 0;
  const shortQuantity = dto.shortQuantity ?? 0;
  // Cross-field, so it cannot sit on a PATCH body field that may arrive alone.
  if (quantity <= 0 && shortQuantity <= 0) {
    return { ok: false, message: 'quantity or shortQuantity must be a positive number' };
  }
  const closedAt = dto.closedAt ?? null;
  return inRange({
    status: closedAt ? 'closed' : 'open',
    strategy: dto.strategy,
    asset: dto.asset,
    buyExchange: dto.buyExchange,
    sellExchange: dto.sellExchange,
    quantity,
    shortQuantity,
    entryBuyPrice: dto.entryBuyPrice ?? null,
    entrySellPrice: dto.entrySellPrice ?? null,
    exitBuyPrice: dto.exitBuyPrice ?? null,
    exitSellPrice: dto.exitSellPrice ?? null,
    tradingFees: dto.tradingFees ?? 0,
    withdrawalFees: dto.withdrawalFees ?? 0,
    funding: dto.funding ?? 0,
    feesEstimated: dto.feesEstimated ?? false,
    openedAt: dto.openedAt,
    closedAt,
    source: dto.source || 'manual',
    externalId: dto.externalId || null,
    notes: dto.notes || null,
  });
}

/** A closed operation whose results would be out of range is refused like any invalid field. */
function inRange(fields: OperationFields): InputResult {
  try {
    computePnl(fields);
  } catch (error) {
    if (error instanceof FigureOutOfRangeError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, fields };
}

/** The writable fields of a stored operation, as a PATCH overlays them. */
export function inputOf(op: JournalOperationEntity): Record<string, unknown> {
  const { id: _id, status: _status, createdAt: _c, updatedAt: _u, grossPnl: _g, netPnl: _n, ...input } = op;
  return input;
}
