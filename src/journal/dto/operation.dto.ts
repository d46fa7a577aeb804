import { ApiProperty } from '@nestjs/swagger';
import { computePnl } from '../journal-pnl.engine.js';
import { OPERATION_STATUSES, type OperationStatus, STRATEGIES, type Strategy } from '../journal-operation.entity.js';
import type { StoredOperation } from '../journal-operation.entity.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** A journal operation as the API returns it (rules: journal); dates are RFC 3339 UTC. */
export class OperationDto {
  @ApiField.uuid()
  id: string;

  @ApiField.email()
  email: string;

  @ApiProperty({ enum: OPERATION_STATUSES, example: 'closed' })
  status: OperationStatus;

  @ApiProperty({ enum: STRATEGIES, example: 'spot_futures' })
  strategy: Strategy;

  @ApiProperty({ example: 'BTC' })
  asset: string;

  @ApiProperty({ example: 'binance' })
  buyExchange: string;

  @ApiProperty({ example: 'binance' })
  sellExchange: string;

  @ApiProperty({ example: 0.5 })
  quantity: number;

  @ApiProperty({ example: 0.5 })
  shortQuantity: number;

  @ApiProperty({ example: 64000, nullable: true, type: Number })
  entryBuyPrice: number | null;

  @ApiProperty({ example: 64100, nullable: true, type: Number })
  entrySellPrice: number | null;

  @ApiProperty({ example: 64450, nullable: true, type: Number })
  exitBuyPrice: number | null;

  @ApiProperty({ example: 64500, nullable: true, type: Number })
  exitSellPrice: number | null;

  @ApiProperty({ example: 12.8 })
  tradingFees: number;

  @ApiProperty({ example: 0 })
  withdrawalFees: number;

  @ApiProperty({ example: 3.2 })
  funding: number;

  @ApiProperty({ example: false })
  feesEstimated: boolean;

  @ApiProperty({ example: 75, nullable: true, type: Number, description: 'Closed only: (exitSell − entryBuy) × quantity + (entrySell − exitBuy) × shortQuantity' })
  grossPnl: number | null;

  @ApiProperty({ example: 65.4, nullable: true, type: Number, description: 'Closed only: grossPnl − tradingFees − withdrawalFees + funding' })
  netPnl: number | null;

  @ApiProperty({ example: 0.10209211, nullable: true, type: Number, description: 'Closed only: netPnl ÷ entry capital × 100' })
  netPnlPct: number | null;

  @ApiField.dateTime({ example: '2026-03-01T12:30:00.000Z' })
  openedAt: string;

  @ApiField.dateTime({ example: '2026-03-02T13:00:00.000Z', nullable: true })
  closedAt: string | null;

  @ApiProperty({ example: 'manual' })
  source: string;

  @ApiProperty({ example: 'binance-7781', nullable: true, type: String })
  externalId: string | null;

  @ApiProperty({ example: 'funding flipped negative, closed early', nullable: true, type: String })
  notes: string | null;

  static from(e: StoredOperation): OperationDto {
    return {
      id: e.id,
      email: e.email,
      status: e.status,
      strategy: e.strategy,
      asset: e.asset,
      buyExchange: e.buyExchange,
      sellExchange: e.sellExchange,
      quantity: e.quantity,
      shortQuantity: e.shortQuantity,
      entryBuyPrice: e.entryBuyPrice,
      entrySellPrice: e.entrySellPrice,
      exitBuyPrice: e.exitBuyPrice,
      exitSellPrice: e.exitSellPrice,
      tradingFees: e.tradingFees,
      withdrawalFees: e.withdrawalFees,
      funding: e.funding,
      feesEstimated: e.feesEstimated,
      ...computePnl(e),
      openedAt: e.openedAt.toISOString(),
      closedAt: e.closedAt?.toISOString() ?? null,
      source: e.source,
      externalId: e.externalId,
      notes: e.notes,
    };
  }
}

export class OperationPageDto {
  @ApiProperty({ type: [OperationDto] })
  data: OperationDto[];

  @ApiField.integer({ minimum: 0, example: 1, description: 'Matching operations before limit and offset' })
  total: number;
}
